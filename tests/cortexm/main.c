/*
 * main.c - the test program of the firmware image (and of the -nostdlib
 * host executable): runs the digits models' generated entries on held-out
 * digits and prints every output as float32 bit patterns in hex, for
 * cmtest.compare to check against the interpreter.
 *
 * Key idea: nothing here needs a library: text is formatted by hand into a
 * line buffer and written through platform.h.  Output, one line each:
 *   MODEL status S                    the entry's return code
 *   MODEL row I class C H0 H1 ...     output row I, its argmax, its bits
 *   MODEL arena_short S               the return code with one byte too few
 *   MODEL canaries ok|clobbered       the bytes on both sides of the arena
 *   MODEL classes FIRST C C ...       argmaxes of a batch of all the digits
 *   end FAILURES
 * inputs.h (written by gen_inputs.py) holds the digits as exact hex floats,
 * and all held-out digits as pixel codes for the accuracy pass, which runs
 * the models marked `all` on them BATCH_DIGITS at a time (the bound of n
 * the models are compiled for) and prints only the argmaxes.
 */
#include "digits_cnn.h"
#include "digits_cnn_int8.h"
#include "digits_mlp.h"
#include "inputs.h"
#include "platform.h"

#define CANARY_BYTES 64
#define CANARY_BYTE(i) ((unsigned char)(0xA5u ^ (unsigned)(i)))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define ARENA_BYTES MAX(MAX(digits_mlp_ARENA_BYTES, digits_cnn_ARENA_BYTES), digits_cnn_int8_ARENA_BYTES)
#define PIXELS 64
#define CLASSES 10

typedef int (*EntryFn)(void *arena, size_t arena_bytes, const float *x, rxc_i64 n, float *out);

typedef struct {
  const char *name;
  EntryFn entry;
  size_t arena_bytes; /* the entry's, at the bound of n */
  const float *x;     /* TEST_DIGITS images of 64 pixels */
  int all;            /* 1: also run on all ALL_DIGITS digits (its layout is x_cnn's) */
} Model;

static const Model models[] = {
    {"digits_mlp", digits_mlp_main, digits_mlp_main_ARENA_BYTES, digits_mlp_x, 0},
    {"digits_cnn", digits_cnn_main, digits_cnn_main_ARENA_BYTES, digits_cnn_x, 1},
    {"digits_cnn_int8", digits_cnn_int8_main, digits_cnn_int8_main_ARENA_BYTES, digits_cnn_int8_x, 1},
};

/* The arena with canaries on both sides; the union aligns it to 8, as
 * NAME_ARENA_ALIGN asks (CANARY_BYTES keeps that alignment). */
static union {
  rxc_u64 align;
  unsigned char bytes[CANARY_BYTES + ARENA_BYTES + CANARY_BYTES];
} space;

#define OUT_ROWS MAX(TEST_DIGITS, BATCH_DIGITS)
static float out[OUT_ROWS * CLASSES];
static float batch[BATCH_DIGITS * PIXELS];

typedef struct {
  char text[MAX(16 + 10 * CLASSES, 3 * BATCH_DIGITS) + 64];
  int len;
} Line;

static void
put_str(Line *l, const char *s)
{
  while (*s && l->len < (int)sizeof l->text - 1)
    l->text[l->len++] = *s++;
}

static void
put_int(Line *l, int v)
{
  char digits[12];
  int n = 0;
  unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
  if (v < 0)
    put_str(l, "-");
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  while (n > 0) {
    char one[2] = {digits[--n], 0};
    put_str(l, one);
  }
}

static void
put_hex32(Line *l, rxc_u32 v)
{
  char hex[9];
  for (int i = 0; i < 8; i++)
    hex[i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 0xF];
  hex[8] = 0;
  put_str(l, hex);
}

/* Writes the line with a newline and empties it. */
static void
flush(Line *l)
{
  l->text[l->len] = 0;
  platform_write(l->text);
  platform_write("\n");
  l->len = 0;
}

static rxc_u32
float_bits(float f)
{
  union {
    float f;
    rxc_u32 u;
  } pun;
  pun.f = f;
  return pun.u;
}

static int
argmax(const float *row)
{
  int best = 0;
  for (int c = 1; c < CLASSES; c++)
    if (row[c] > row[best])
      best = c;
  return best;
}

static void
canaries_set(void)
{
  for (int i = 0; i < CANARY_BYTES; i++) {
    space.bytes[i] = CANARY_BYTE(i);
    space.bytes[CANARY_BYTES + ARENA_BYTES + i] = CANARY_BYTE(i);
  }
}

static int
canaries_intact(void)
{
  for (int i = 0; i < CANARY_BYTES; i++)
    if (space.bytes[i] != CANARY_BYTE(i) || space.bytes[CANARY_BYTES + ARENA_BYTES + i] != CANARY_BYTE(i))
      return 0;
  return 1;
}

/* Prints MODEL-prefixed "status" or "arena_short" with the code. */
static void
print_code(Line *l, const Model *m, const char *what, int code)
{
  put_str(l, m->name);
  put_str(l, " ");
  put_str(l, what);
  put_str(l, " ");
  put_int(l, code);
  flush(l);
}

static void
print_rows(Line *l, const Model *m)
{
  for (int r = 0; r < TEST_DIGITS; r++) {
    const float *row = out + r * CLASSES;
    put_str(l, m->name);
    put_str(l, " row ");
    put_int(l, r);
    put_str(l, " class ");
    put_int(l, argmax(row));
    for (int c = 0; c < CLASSES; c++) {
      put_str(l, " ");
      put_hex32(l, float_bits(row[c]));
    }
    flush(l);
  }
}

/* Runs one model; returns the number of failures seen on the device (the
 * values themselves are cmtest.compare's to judge). */
static int
run_model(Line *l, const Model *m)
{
  void *arena = space.bytes + CANARY_BYTES;
  int failures = 0, status, canaries;
  for (int i = 0; i < TEST_DIGITS * CLASSES; i++)
    out[i] = -1.0f;
  canaries_set();
  status = m->entry(arena, m->arena_bytes, m->x, TEST_DIGITS, out);
  canaries = canaries_intact();
  print_code(l, m, "status", status);
  print_rows(l, m);
  /* one byte short: an error, and the outputs stay as they are */
  out[0] = -2.0f;
  print_code(l, m, "arena_short", m->entry(arena, m->arena_bytes - 1, m->x, TEST_DIGITS, out));
  put_str(l, m->name);
  put_str(l, canaries && canaries_intact() ? " canaries ok" : " canaries clobbered");
  flush(l);
  failures += status != 0;
  failures += !canaries || !canaries_intact();
  failures += out[0] != -2.0f;
  return failures;
}

/* Runs m on all ALL_DIGITS digits, BATCH_DIGITS at a time, printing each
 * batch's argmaxes; returns the number of failing entry calls. */
static int
run_all(Line *l, const Model *m)
{
  void *arena = space.bytes + CANARY_BYTES;
  int failures = 0;
  for (int first = 0; first < ALL_DIGITS; first += BATCH_DIGITS) {
    int count = ALL_DIGITS - first < BATCH_DIGITS ? ALL_DIGITS - first : BATCH_DIGITS;
    for (int i = 0; i < count * PIXELS; i++)
      batch[i] = (float)all_pixels[first * PIXELS + i] * 0.0625f; /* k/16, exact */
    if (m->entry(arena, m->arena_bytes, batch, count, out) != 0)
      failures++;
    put_str(l, m->name);
    put_str(l, " classes ");
    put_int(l, first);
    for (int r = 0; r < count; r++) {
      put_str(l, " ");
      put_int(l, argmax(out + r * CLASSES));
    }
    flush(l);
  }
  return failures;
}

int
test_main(void)
{
  Line l; /* no initializer: gcc may make one of an array a memset call */
  int failures = 0;
  l.len = 0;
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
    failures += run_model(&l, &models[i]);
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
    if (models[i].all)
      failures += run_all(&l, &models[i]);
  put_str(&l, "end ");
  put_int(&l, failures);
  flush(&l);
  return failures != 0;
}
