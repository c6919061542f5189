// The serial joystick protocol, version 1 (docs/serial-joystick.md), as the adapter speaks it.
// videopac/serial_joystick.py is the reader's side; tests/serial/test_firmware.py checks that
// the constants and the frames of both sides agree, so neither can drift.
#ifndef JOYSTICK_PROTOCOL_H
#define JOYSTICK_PROTOCOL_H

#include <stdint.h>

#define PROTOCOL_VERSION 1     // low 7 bits of the start byte
#define START_FLAG 0x80        // bit 7: set in the start byte only, so any such byte resyncs
#define FRAME_LENGTH 4         // start, stick 0, stick 1, CRC-7
#define CRC7_POLY 0x09         // x^7 + x^3 + 1 (CRC-7/MMC: init 0, MSB first, no final xor)
#define STICK_MASK 0x1F        // switch bits; bits 5-6 stay 0
#define BIT_UP 0               // bit order of the console's data bus (hardware.md section 6),
#define BIT_RIGHT 1            // but 1 = pressed
#define BIT_DOWN 2
#define BIT_LEFT 3
#define BIT_FIRE 4
#define DEFAULT_BAUD 115200
#define KEEPALIVE_MS 100       // repeat the state at least this often

// CRC-7/MMC of `length` bytes; the register holds the CRC in bits 7..1.
static inline uint8_t crc7(const uint8_t *data, uint8_t length) {
  uint8_t reg = 0;
  for (uint8_t i = 0; i < length; i++) {
    reg ^= data[i];
    for (uint8_t bit = 0; bit < 8; bit++) {
      reg = (reg & 0x80) ? (uint8_t)((reg << 1) ^ (CRC7_POLY << 1)) : (uint8_t)(reg << 1);
    }
  }
  return reg >> 1;
}

// One frame for the two stick bytes (bit BIT_x set = switch closed).
static inline void encode_frame(uint8_t frame[FRAME_LENGTH], uint8_t stick0, uint8_t stick1) {
  frame[0] = START_FLAG | PROTOCOL_VERSION;
  frame[1] = stick0 & STICK_MASK;
  frame[2] = stick1 & STICK_MASK;
  frame[3] = crc7(frame, 3);
}

#endif
