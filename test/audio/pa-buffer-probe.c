/*
 * What PortAudio asks of ALSA: an LD_PRELOAD shim that logs, on stderr, the buffer and period
 * every snd_pcm_hw_params() call settles on (PortAudio's choice follows the callback size the
 * app passes as framesPerBuffer: see main/audio/naudiodon-backend.ts). Tests only.
 *   gcc -shared -fPIC -o /tmp/pa-buffer-probe.so test/audio/pa-buffer-probe.c -ldl
 *   HOME=<folder holding the .asoundrc of asoundrc.template> LD_PRELOAD=/tmp/pa-buffer-probe.so \
 *     npx tsx test/audio/alsa-child.ts flush /tmp/flush.json 2>&1 | grep -a pa-buffer-probe
 * naudiodon links libasound, which it loads with its own dlopen: the real functions are looked
 * up in that library by handle (RTLD_NEXT does not reach it).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

typedef struct snd_pcm snd_pcm_t;
typedef struct snd_pcm_hw_params snd_pcm_hw_params_t;

static void *asound(void) {
  static void *handle = NULL;
  if (!handle) handle = dlopen("libasound.so.2", RTLD_NOW);
  return handle;
}

int snd_pcm_hw_params(snd_pcm_t *pcm, snd_pcm_hw_params_t *params) {
  int (*real)(snd_pcm_t *, snd_pcm_hw_params_t *) = dlsym(asound(), "snd_pcm_hw_params");
  int (*buffer_size)(const snd_pcm_hw_params_t *, unsigned long *) = dlsym(asound(), "snd_pcm_hw_params_get_buffer_size");
  int (*period_size)(const snd_pcm_hw_params_t *, unsigned long *, int *) = dlsym(asound(), "snd_pcm_hw_params_get_period_size");
  int (*rate)(const snd_pcm_hw_params_t *, unsigned int *, int *) = dlsym(asound(), "snd_pcm_hw_params_get_rate");
  const char *(*name)(snd_pcm_t *) = dlsym(asound(), "snd_pcm_name");
  int result = real(pcm, params);
  unsigned long buffer = 0, period = 0;
  unsigned int hz = 0;
  int dir = 0;
  buffer_size(params, &buffer);
  period_size(params, &period, &dir);
  rate(params, &hz, &dir);
  fprintf(stderr, "pa-buffer-probe: %s -> %d: buffer %lu frames, period %lu, at %u Hz (%.1f ms)\n", name(pcm), result, buffer, period, hz, hz ? buffer * 1000.0 / hz : 0.0);
  return result;
}
