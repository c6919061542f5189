// The few Arduino core calls the adapter sketch uses, declared for building it off-board:
// harness.cpp defines them for the host simulation; avr-g++ only compiles against them.
#ifndef ARDUINO_SHIM_H
#define ARDUINO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#define LOW 0
#define HIGH 1
#define INPUT 0
#define OUTPUT 1
#define INPUT_PULLUP 2

void pinMode(uint8_t pin, uint8_t mode);
int digitalRead(uint8_t pin);
void digitalWrite(uint8_t pin, uint8_t level);
unsigned long millis();

struct HardwareSerialShim {
  void begin(unsigned long baud);
  size_t write(const uint8_t *data, size_t length);
};
extern HardwareSerialShim Serial;

#endif
