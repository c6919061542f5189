/* A minimal libretro frontend that times a libretro core (O2EM's, as the speed reference of
 * tools/speed.py) on one BIOS, one cartridge and a key script, with no window and no sound
 * output. It is our own program: it uses only the public libretro API, whose header
 * (libretro.h) it is compiled against from the core's own checkout; nothing of the core is
 * in the repository (README "Speed", docs/emulator.md "Speed").
 *
 *   o2em_host CORE.so SYSTEM_DIR BIOS_NAME CART FRAMES [KEY_FRAME HOLD]
 *
 * SYSTEM_DIR holds the BIOS under BIOS_NAME, the file name the core's "o2em_bios" option
 * selects (c52.bin: a European G7000, PAL). The keyboard key A is held for HOLD frames from
 * frame KEY_FRAME on. One frame is run before the clock starts (as tools/speed.py does for
 * its own machine), then FRAMES frames; the output is one line:
 *
 *   cpu=<process CPU seconds> wall=<seconds>
 *
 * With O2EM_HOST_PPM=FILE set, the frame after the timed ones is written there as a PPM
 * picture, to see that the core runs the same game as ours.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "libretro.h"

static const char *system_dir;
static const char *bios_name;
static long frame_no, key_frame = -1, key_hold;

static bool environment(unsigned cmd, void *data)
{
    switch (cmd) {
    case RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY:
        *(const char **)data = system_dir;
        return true;
    case RETRO_ENVIRONMENT_SET_PIXEL_FORMAT:
        return true;                                /* whatever the core converts to */
    case RETRO_ENVIRONMENT_GET_VARIABLE: {
        struct retro_variable *var = data;
        if (strcmp(var->key, "o2em_bios") == 0) {
            var->value = bios_name;
            return true;
        }
        var->value = NULL;                          /* every other option: its default */
        return false;
    }
    case RETRO_ENVIRONMENT_GET_VARIABLE_UPDATE:
        *(bool *)data = false;
        return true;
    default:
        return false;
    }
}

static void video(const void *pixels, unsigned width, unsigned height, size_t pitch)
{
    (void)pixels; (void)width; (void)height; (void)pitch;
}

static void sample(int16_t left, int16_t right) { (void)left; (void)right; }
static size_t samples(const int16_t *data, size_t frames) { (void)data; return frames; }
static void poll(void) {}

static int16_t input(unsigned port, unsigned device, unsigned index, unsigned id)
{
    (void)port; (void)index;
    return device == RETRO_DEVICE_KEYBOARD && id == RETROK_a
        && frame_no >= key_frame && frame_no < key_frame + key_hold;
}

static double cpu_seconds(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_stime.tv_sec
        + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *need(void *core, const char *name)
{
    void *fn = dlsym(core, name);
    if (!fn) {
        fprintf(stderr, "o2em_host: the core has no %s\n", name);
        exit(2);
    }
    return fn;
}

static const void *last_pixels;
static unsigned last_height;
static size_t last_pitch;

static void video_last(const void *pixels, unsigned width, unsigned height, size_t pitch)
{
    (void)width;
    last_pixels = pixels, last_height = height, last_pitch = pitch;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 8) {
        fprintf(stderr, "usage: o2em_host CORE.so SYSTEM_DIR BIOS_NAME CART FRAMES "
                        "[KEY_FRAME HOLD]\n");
        return 2;
    }
    system_dir = argv[2];
    bios_name = argv[3];
    long frames = atol(argv[5]);
    if (argc == 8)
        key_frame = atol(argv[6]), key_hold = atol(argv[7]);

    FILE *f = fopen(argv[4], "rb");
    static uint8_t cart[1 << 20];
    size_t size = f ? fread(cart, 1, sizeof cart, f) : 0;
    if (!f || size == 0) {
        fprintf(stderr, "o2em_host: cannot read the cartridge %s\n", argv[4]);
        return 2;
    }
    fclose(f);

    void *core = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!core) {
        fprintf(stderr, "o2em_host: %s\n", dlerror());
        return 2;
    }
    ((void (*)(retro_environment_t))need(core, "retro_set_environment"))(environment);
    ((void (*)(retro_video_refresh_t))need(core, "retro_set_video_refresh"))(video);
    ((void (*)(retro_audio_sample_t))need(core, "retro_set_audio_sample"))(sample);
    ((void (*)(retro_audio_sample_batch_t))need(core, "retro_set_audio_sample_batch"))(samples);
    ((void (*)(retro_input_poll_t))need(core, "retro_set_input_poll"))(poll);
    ((void (*)(retro_input_state_t))need(core, "retro_set_input_state"))(input);
    ((void (*)(void))need(core, "retro_init"))();
    struct retro_game_info game = {argv[4], cart, size, NULL};
    if (!((bool (*)(const struct retro_game_info *))need(core, "retro_load_game"))(&game)) {
        fprintf(stderr, "o2em_host: the core did not load the BIOS %s/%s or the cartridge\n",
                system_dir, bios_name);
        return 2;
    }
    void (*run)(void) = (void (*)(void))need(core, "retro_run");

    run();                                      /* the first frame outside the clock */
    double cpu = cpu_seconds(), wall = wall_seconds();
    for (frame_no = 0; frame_no < frames; frame_no++)
        run();
    cpu = cpu_seconds() - cpu;
    wall = wall_seconds() - wall;

    ((void (*)(retro_video_refresh_t))need(core, "retro_set_video_refresh"))(video_last);
    run();
    const char *ppm = getenv("O2EM_HOST_PPM");     /* the last frame as a picture, to look at */
    FILE *out = ppm && last_pixels ? fopen(ppm, "wb") : NULL;
    if (out) {
        unsigned width = last_pitch / 2;
        fprintf(out, "P6 %u %u 255\n", width, last_height);
        for (unsigned y = 0; y < last_height; y++)
            for (unsigned x = 0; x < width; x++) {
                uint16_t p = ((const uint16_t *)last_pixels)[y * width + x];   /* RGB565 */
                uint8_t rgb[3] = {(p >> 11) << 3, ((p >> 5) & 63) << 2, (p & 31) << 3};
                fwrite(rgb, 1, 3, out);
            }
        fclose(out);
    }
    printf("cpu=%.4f wall=%.4f\n", cpu, wall);
    return 0;
}
