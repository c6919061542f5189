"""The table: the battle on the console and the board game's ledger side by side. The bridge
follows the battles and proposes ledger lines (bridge.py), the panel shows the ledger
(panel.py) beside the battle or in a window of its own (ledger_window.py), and wiring.py joins
them to the play loop (`videopac play --ledger`)."""
