// The joystick adapter's real AVR binary on a simulated ATmega328P (simavr's libsimavr), as a
// board on a USB cable: the firmware's UART goes to a pseudo-terminal that `videopac` opens like
// /dev/ttyACM0, its switch inputs are driven from standard input, and simulated time runs at
// the pace of the wall clock, so the reader sees frames when a real adapter would send them.
//
//   adapter_sim FIRMWARE.elf
//
// Standard output, one line each:
//   pty PATH         the terminal to open (first line)
//   led 0|1          the on-board LED (D13) went off or on
//   at MS            answer to `sync`: the simulated milliseconds since reset
// Standard input, one command a line:
//   pin P L          Arduino pin P (2..11: a switch input) reads L: 0 = closed to GND, 1 = open
//   wait MS          let MS simulated milliseconds pass before the next command is read
//   sync             print `at MS`
// End of input ends the simulation. Wiring of the pins: README.md beside the sketch.
#define _GNU_SOURCE              // posix_openpt, ptsname, cfmakeraw
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_ioport.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>

#define MCU "atmega328p"
#define CLOCK_HZ 16000000UL      // the Uno's and Nano's crystal
#define CYCLES_PER_MS (CLOCK_HZ / 1000)

static int master = -1;          // the pseudo-terminal's side the board writes to
static avr_t *avr;

// A byte the firmware's UART sent: to the terminal (dropped when nobody reads it and the
// terminal's buffer is full, as a USB serial chip drops what the PC does not fetch).
static void uart_output(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq; (void)param;
  uint8_t byte = (uint8_t)value;
  if (write(master, &byte, 1) < 0 && errno != EAGAIN && errno != EIO) perror("adapter_sim: pty");
}

static void led_changed(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq; (void)param;
  printf("led %u\n", value ? 1u : 0u);
  fflush(stdout);
}

// Arduino pin -> ATmega328P port and bit (the Uno's pin map: D0-D7 = PD0-7, D8-D13 = PB0-5).
static char pin_port(int pin) { return pin < 8 ? 'D' : 'B'; }
static int pin_bit(int pin) { return pin < 8 ? pin : pin - 8; }

static avr_irq_t *pin_irq(int pin) {
  return avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(pin_port(pin)), pin_bit(pin));
}

// What the switches hold each pin at, per port: a closed switch pulls its pin to GND. simavr
// gives an input pin the value of its PORT bit (the pull-up) again whenever the firmware writes
// that port (the LED on PB5 shares port B with stick 1), unless the level is set as the pin's
// external value, so the level is set both ways.
static uint8_t external_low[2];          // [0] port B, [1] port D: bits pulled to GND

static void set_switch(int pin, int level) {
  int port = pin_port(pin) == 'D';
  uint8_t bit = (uint8_t)(1u << pin_bit(pin));
  external_low[port] = level ? external_low[port] & ~bit : external_low[port] | bit;
  avr_ioport_external_t external = {.name = pin_port(pin), .mask = external_low[port],
                                    .value = 0};
  avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(pin_port(pin)), &external);
  avr_raise_irq(pin_irq(pin), level ? 1 : 0);
}

static double wall_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double sim_ms(void) { return (double)avr->cycle / CYCLES_PER_MS; }

// Run the CPU until simulated time reaches `until_ms`, never ahead of the wall clock.
static int run_until(double until_ms, double start_wall) {
  while (sim_ms() < until_ms) {
    avr_cycle_count_t target = avr->cycle + CYCLES_PER_MS;
    while (avr->cycle < target) {
      int state = avr_run(avr);
      if (state == cpu_Done || state == cpu_Crashed) {
        fprintf(stderr, "adapter_sim: the firmware stopped (state %d)\n", state);
        return -1;
      }
    }
    double ahead = sim_ms() - (wall_ms() - start_wall);
    if (ahead > 1) usleep((useconds_t)(ahead * 1000));
  }
  return 0;
}

// One command line (see the top); 0, or the exit status for a line that is not a command.
static int command(const char *line, double *resume_ms) {
  int pin, level;
  double ms;
  if (sscanf(line, "pin %d %d", &pin, &level) == 2 && pin >= 2 && pin <= 11) {
    set_switch(pin, level);
  } else if (sscanf(line, "wait %lf", &ms) == 1 && ms >= 0) {
    *resume_ms = sim_ms() + ms;
  } else if (!strcmp(line, "sync")) {
    printf("at %.0f\n", sim_ms());
    fflush(stdout);
  } else if (line[0]) {
    fprintf(stderr, "adapter_sim: unknown command '%s'\n", line);
    return 2;
  }
  return 0;
}

static int open_terminal(void) {
  master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) || unlockpt(master)) return -1;
  struct termios raw;
  if (tcgetattr(master, &raw)) return -1;
  cfmakeraw(&raw);                       // bytes pass unchanged: no echo, no line editing
  if (tcsetattr(master, TCSANOW, &raw)) return -1;
  return fcntl(master, F_SETFL, O_NONBLOCK);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: adapter_sim FIRMWARE.elf\n");
    return 2;
  }
  elf_firmware_t firmware;
  memset(&firmware, 0, sizeof firmware);
  if (elf_read_firmware(argv[1], &firmware)) {
    fprintf(stderr, "adapter_sim: cannot read %s\n", argv[1]);
    return 2;
  }
  avr = avr_make_mcu_by_name(MCU);
  if (!avr || avr_init(avr)) {
    fprintf(stderr, "adapter_sim: simavr has no %s\n", MCU);
    return 1;
  }
  avr->log = LOG_ERROR;                  // simavr's own notes would mix with our lines ...
  int out = dup(STDOUT_FILENO);          // ... and it prints what it loads: to stderr
  dup2(STDERR_FILENO, STDOUT_FILENO);
  avr_load_firmware(avr, &firmware);
  fflush(stdout);
  dup2(out, STDOUT_FILENO);
  close(out);
  avr->frequency = CLOCK_HZ;

  uint32_t flags = 0;                    // the bytes go to the terminal only, not printed
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~AVR_UART_FLAG_STDIO;
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                          uart_output, NULL);
  avr_irq_register_notify(pin_irq(13), led_changed, NULL);
  for (int pin = 2; pin <= 11; pin++) set_switch(pin, 1);   // every switch open

  if (open_terminal()) {
    perror("adapter_sim: cannot open a pseudo-terminal");
    return 1;
  }
  printf("pty %s\n", ptsname(master));
  fflush(stdout);

  fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
  double start_wall = wall_ms();
  double resume_ms = 0;                  // a `wait` holds the next command until then
  char line[128];
  size_t used = 0;
  for (;;) {
    if (run_until(sim_ms() + 1, start_wall)) return 1;
    char *end;
    while (sim_ms() >= resume_ms && (end = memchr(line, '\n', used)) != NULL) {
      *end = 0;
      int status = command(line, &resume_ms);
      if (status) return status;
      used -= (size_t)(end + 1 - line);
      memmove(line, end + 1, used);
    }
    if (sim_ms() < resume_ms) continue;
    if (used == sizeof line) {
      fprintf(stderr, "adapter_sim: command line too long\n");
      return 2;
    }
    ssize_t got = read(STDIN_FILENO, line + used, sizeof line - used);
    if (got == 0) return 0;              // end of input and of its commands: board unplugged
    if (got > 0) used += (size_t)got;
  }
}
