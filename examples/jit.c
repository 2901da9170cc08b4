/*
 * jit.c - rxc as a library: compile a Relax function in memory with
 * libtcc and call it (README "The library API").
 *
 *   cc examples/jit.c $(pkg-config --cflags --libs --static rxc) -o jit && ./jit
 *
 * y = relu(x @ w + b) for a 3x2 x; prints y and checks it against the
 * same arithmetic done here in C.  Exits 0 when they agree.
 */
#include <math.h>
#include <rxc.h>
#include <stdio.h>
#include <stdlib.h>

static const char source[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\", 2), dtype=\"float32\"), w: R.Tensor((2, 3), dtype=\"float32\"),\n"
    "             b: R.Tensor((3,), dtype=\"float32\")) -> R.Tensor((\"n\", 3), dtype=\"float32\"):\n"
    "        n = T.int64()\n"
    "        R.func_attr({\"tir_var_upper_bound\": {\"n\": 16}})\n"
    "        with R.dataflow():\n"
    "            lv = R.matmul(x, w)\n"
    "            lv1 = R.add(lv, b)\n"
    "            gv = R.nn.relu(lv1)\n"
    "            R.output(gv)\n"
    "        return gv\n";

int
main(void)
{
  RxcModel *m = rxc_jit_string("dense.py", source, NULL, stderr);
  if (!m)
    return 1;
  RxcEntry fn = rxc_model_entry(m, "main");
  float x[3][2] = {{1, 2}, {-1, 0.5f}, {0, -3}};
  float w[2][3] = {{0.5f, -1, 2}, {1, 1, -0.25f}};
  float b[3] = {0.1f, 0.2f, -0.3f};
  float y[3][3] = {{0}};
  void *tensors[] = {x, w, b, y};
  int64_t dims[] = {3};
  size_t bytes = 0; /* the arena for these dims: a multiple of the alignment */
  int rc = rxc_model_arena_bytes_for(m, "main", dims, &bytes);
  size_t align = rxc_model_arena_align(m);
  void *arena = rc ? NULL : aligned_alloc(align, bytes ? bytes : align);
  rc = rc ? rc : fn(arena, bytes, tensors, dims);
  if (rc)
    fprintf(stderr, "main: %s\n", rxc_model_strerror(rc));
  int bad = rc != 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      float want = x[i][0] * w[0][j] + x[i][1] * w[1][j] + b[j];
      want = want > 0 ? want : 0;
      bad |= fabsf(y[i][j] - want) > 1e-6f;
      printf("%s%g", j ? " " : "", (double)y[i][j]);
    }
    printf("\n");
  }
  printf("rc %d, arena %zu bytes: %s\n", rc, bytes, bad ? "WRONG" : "ok");
  free(arena);
  rxc_model_free(m);
  return bad;
}
