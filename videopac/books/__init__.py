"""The ledger's front ends without a window: the terminal (terminal.py), the web server for
the phones at the table (web.py) with what a phone sees (view.py) and the page's words
(words.py). They keep the books through board_ledger and know nothing of the console."""
