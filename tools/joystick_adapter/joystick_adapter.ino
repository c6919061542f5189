// Joystick adapter for videopac: reads two Odyssey2/Videopac or Atari-style joysticks and sends
// their switches over USB serial (docs/serial-joystick.md). Board: Arduino Uno or Nano
// (ATmega328). Wiring: README.md beside this file.

#include "joystick_protocol.h"

// Pin table: each switch closes its pin to GND (active low, as on the console's bus),
// the ATmega's internal pull-up holds it high when open. D0/D1 are the USB serial line,
// D13 carries the on-board LED, which lights while any switch is closed.
struct SwitchPin {
  uint8_t pin;
  uint8_t stick;   // 0 = console joystick 0 (left, red), 1 = joystick 1 (right, blue)
  uint8_t bit;     // BIT_UP ... BIT_FIRE
};

const SwitchPin SWITCHES[] = {
  {2, 0, BIT_UP},  {3, 0, BIT_DOWN}, {4, 0, BIT_LEFT},  {5, 0, BIT_RIGHT},  {6, 0, BIT_FIRE},
  {7, 1, BIT_UP},  {8, 1, BIT_DOWN}, {9, 1, BIT_LEFT},  {10, 1, BIT_RIGHT}, {11, 1, BIT_FIRE},
};
const uint8_t SWITCH_COUNT = sizeof(SWITCHES) / sizeof(SWITCHES[0]);
const uint8_t LED_PIN = 13;
const uint8_t DEBOUNCE_MS = 5;   // a switch must read the same for this long to count

uint8_t sticks[2];                      // debounced state, protocol bit layout
bool rawClosed[SWITCH_COUNT];           // last raw reading of each switch
unsigned long rawSince[SWITCH_COUNT];   // when that reading last changed
unsigned long lastSent;

static void sendFrame(unsigned long now) {
  uint8_t frame[FRAME_LENGTH];
  encode_frame(frame, sticks[0], sticks[1]);
  Serial.write(frame, FRAME_LENGTH);
  digitalWrite(LED_PIN, (sticks[0] | sticks[1]) ? HIGH : LOW);
  lastSent = now;
}

void setup() {
  for (uint8_t i = 0; i < SWITCH_COUNT; i++) {
    pinMode(SWITCHES[i].pin, INPUT_PULLUP);
  }
  pinMode(LED_PIN, OUTPUT);
  Serial.begin(DEFAULT_BAUD);
  unsigned long now = millis();
  for (uint8_t i = 0; i < SWITCH_COUNT; i++) {
    rawClosed[i] = false;
    rawSince[i] = now;
  }
  sendFrame(now);   // the reader knows the adapter is there before the first keep-alive
}

void loop() {
  unsigned long now = millis();
  bool changed = false;
  for (uint8_t i = 0; i < SWITCH_COUNT; i++) {
    bool closed = digitalRead(SWITCHES[i].pin) == LOW;
    uint8_t mask = (uint8_t)(1u << SWITCHES[i].bit);
    bool stable = (sticks[SWITCHES[i].stick] & mask) != 0;
    if (closed != rawClosed[i]) {
      rawClosed[i] = closed;          // bounce or a real change: start timing again
      rawSince[i] = now;
    } else if (closed != stable && now - rawSince[i] >= DEBOUNCE_MS) {
      sticks[SWITCHES[i].stick] ^= mask;
      changed = true;
    }
  }
  if (changed || now - lastSent >= KEEPALIVE_MS) {
    sendFrame(now);
  }
}
