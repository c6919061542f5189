// Runs the adapter sketch on the host: stdin drives pins and time, stdout shows what it sends.
//   pin P L     set pin P to level L (0 = closed to GND, 1 = open); pins without pull-up: error
//   run MS      advance MS milliseconds, calling loop() 8 times per millisecond
//   frame A B   print encode_frame(A, B) (protocol check, no time passes)
// Output: "T <ms> <hex bytes>" for every Serial.write, "E <message>" for misuse.
#include <cstdio>
#include <cstring>
#include "Arduino.h"
#include "joystick_adapter.ino"

static int levels[32];
static int modes[32];
static unsigned long now_ms;
static unsigned long baud;
HardwareSerialShim Serial;

void pinMode(uint8_t pin, uint8_t mode) { modes[pin] = mode; levels[pin] = mode == INPUT_PULLUP; }
int digitalRead(uint8_t pin) {
  if (modes[pin] != INPUT_PULLUP) std::printf("E read of pin %d without pull-up\n", pin);
  return levels[pin];
}
void digitalWrite(uint8_t pin, uint8_t level) {
  if (modes[pin] != OUTPUT) std::printf("E write to pin %d not an output\n", pin);
  levels[pin] = level;
}
unsigned long millis() { return now_ms; }
void HardwareSerialShim::begin(unsigned long rate) { baud = rate; }
size_t HardwareSerialShim::write(const uint8_t *data, size_t length) {
  if (baud == 0) std::printf("E write before Serial.begin\n");
  std::printf("T %lu", now_ms);
  for (size_t i = 0; i < length; i++) std::printf(" %02x", data[i]);
  std::printf("\n");
  return length;
}

int main() {
  setup();
  std::printf("B %lu\n", baud);
  char cmd[16];
  while (std::scanf("%15s", cmd) == 1) {
    if (!std::strcmp(cmd, "pin")) {
      int pin, level;
      if (std::scanf("%d %d", &pin, &level) != 2) return 2;
      if (modes[pin] != INPUT_PULLUP) std::printf("E pin %d is not a switch input\n", pin);
      levels[pin] = level;
    } else if (!std::strcmp(cmd, "run")) {
      unsigned long ms;
      if (std::scanf("%lu", &ms) != 1) return 2;
      for (unsigned long t = 0; t < ms; t++) {
        for (int i = 0; i < 8; i++) loop();
        now_ms++;
      }
    } else if (!std::strcmp(cmd, "frame")) {
      unsigned a, b;
      if (std::scanf("%u %u", &a, &b) != 2) return 2;
      uint8_t frame[FRAME_LENGTH];
      encode_frame(frame, (uint8_t)a, (uint8_t)b);
      std::printf("F");
      for (int i = 0; i < FRAME_LENGTH; i++) std::printf(" %02x", frame[i]);
      std::printf("\n");
    } else {
      std::printf("E unknown command %s\n", cmd);
    }
  }
  return 0;
}
