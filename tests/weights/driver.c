/* driver.c - calls m_main_packed of a generated m.c on the bytes of a file,
 * for tests/weights/weights_modes.py.
 *
 *   driver IN OUT NIN NOUT NDIMS BYTES... DIMS... [BLOB OTHER_BLOB]
 *
 * IN holds the NIN inputs one after the other (BYTES each, in signature
 * order), OUT gets the NOUT outputs likewise.  Built with -DBLOB for
 * weights = blob: it then first checks that m_set_weights refuses what is
 * not this model's blob (NULL, short, misaligned, any changed header byte,
 * OTHER_BLOB), that the entry refuses to run without weights and leaves
 * the outputs alone, and then hands over BLOB.  With -DINCBIN too, the
 * blob handed over is the one linked in by README's .incbin recipe (the
 * symbol model_weights), not the file.  Prints what failed; exit 0 when
 * nothing did. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m.h"

enum { MAX_TENSORS = 32, SENTINEL = 0xa5 };

static int failures;

/* n bytes at a 64-byte aligned address (never freed: the process is
 * short; tcc's C99 headers have no aligned_alloc). */
static void *
alloc64(size_t n)
{
  unsigned char *p = malloc(n + 64);
  if (!p) {
    perror("malloc");
    exit(2);
  }
  return p + (64 - (size_t)p % 64);
}

static void
expect(int ok, const char *what)
{
  if (!ok) {
    printf("FAILED: %s\n", what);
    failures++;
  }
}

/* The whole file at path in a 64-byte aligned buffer (+64 bytes of slack
 * for a misaligned copy); *n its size. */
static unsigned char *
read_file(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = alloc64(*n + 64);
  if (!p || fread(p, 1, *n, f) != *n) {
    perror(path);
    exit(2);
  }
  fclose(f);
  return p;
}

#ifdef INCBIN
extern const unsigned char model_weights[];
#endif

#ifdef BLOB
static int
untouched(void *const *tensors, const size_t *bytes, int first, int n)
{
  for (int t = first; t < first + n; t++)
    for (size_t i = 0; i < bytes[t]; i++)
      if (((unsigned char *)tensors[t])[i] != SENTINEL)
        return 0;
  return 1;
}

static void
refusals(const char *blob_path, const char *other_path, void *arena, void *const *tensors,
         const size_t *bytes, int nin, int nout, const rxc_i64 *dims)
{
  size_t n, other_n;
  unsigned char *w = read_file(blob_path, &n);
  unsigned char *other = read_file(other_path, &other_n);
  expect(n == m_WEIGHTS_BYTES, "the blob's size is m_WEIGHTS_BYTES");
  expect(m_main_packed(arena, m_ARENA_BYTES, tensors, dims) == m_ERR_WEIGHTS,
         "the entry refuses to run before m_set_weights");
  expect(m_set_weights(NULL, n) == m_ERR_WEIGHTS, "NULL weights are refused");
  expect(m_set_weights(w, n - 1) == m_ERR_WEIGHTS, "a short blob is refused");
  if (m_WEIGHTS_ALIGN > 1) {
    memmove(w + 1, w, n);
    expect(m_set_weights(w + 1, n) == m_ERR_WEIGHTS, "a misaligned blob is refused");
    memmove(w, w + 1, n);
  }
  for (int i = 0; i < 32; i++) {
    w[i] ^= 0x10;
    if (m_set_weights(w, n) != m_ERR_WEIGHTS) {
      printf("FAILED: header byte %d changed, the blob is still taken\n", i);
      failures++;
    }
    w[i] ^= 0x10;
  }
  expect(m_set_weights(other, other_n) == m_ERR_WEIGHTS, "another model's blob is refused");
  expect(m_main_packed(arena, m_ARENA_BYTES, tensors, dims) == m_ERR_WEIGHTS,
         "the entry refuses to run after refused weights");
  expect(untouched(tensors, bytes, nin, nout), "refused calls leave the outputs alone");
  expect(m_set_weights(w, n + 64) == 0, "a larger buffer holding the blob is taken");
  expect(m_set_weights(w, n) == 0, "the blob is taken");
#ifdef INCBIN
  expect(m_set_weights(model_weights, m_WEIGHTS_BYTES) == 0, "the linked blob is taken");
#endif
}
#endif

int
main(int argc, char **argv)
{
  if (argc < 6)
    return 2;
  int nin = atoi(argv[3]), nout = atoi(argv[4]), ndims = atoi(argv[5]);
  int nt = nin + nout;
  if (nt > MAX_TENSORS || ndims > MAX_TENSORS || argc < 6 + nt + ndims)
    return 2;
  size_t bytes[MAX_TENSORS], in_n;
  void *tensors[MAX_TENSORS];
  rxc_i64 dims[MAX_TENSORS + 1];
  unsigned char *in = read_file(argv[1], &in_n);
  size_t at = 0;
  for (int t = 0; t < nt; t++) {
    bytes[t] = (size_t)atoll(argv[6 + t]);
    tensors[t] = alloc64(bytes[t]);
    if (t < nin) {
      if (at + bytes[t] > in_n)
        return 2;
      memcpy(tensors[t], in + at, bytes[t]);
      at += bytes[t];
    } else {
      memset(tensors[t], SENTINEL, bytes[t]);
    }
  }
  for (int d = 0; d < ndims; d++)
    dims[d] = atoll(argv[6 + nt + d]);
  void *arena = alloc64(m_ARENA_BYTES);
#ifdef BLOB
  if (argc < 8 + nt + ndims)
    return 2;
  refusals(argv[6 + nt + ndims], argv[7 + nt + ndims], arena, tensors, bytes, nin, nout, dims);
#endif
  int rc = m_main_packed(arena, m_ARENA_BYTES, tensors, dims);
  if (rc != 0) {
    printf("FAILED: m_main_packed returned %d (%s)\n", rc, m_strerror(rc));
    return 1;
  }
  FILE *out = fopen(argv[2], "wb");
  for (int t = nin; t < nt && out; t++)
    fwrite(tensors[t], 1, bytes[t], out);
  if (!out || fclose(out) != 0)
    return 2;
  return failures ? 1 : 0;
}
