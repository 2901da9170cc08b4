/*
 * onnx_extern.c - a tensor's external data: TensorProto.data_location
 * EXTERNAL, how torch.onnx and onnx.save_model(save_as_external_data=True)
 * keep models over protobuf's 2 GB.  The external_data entries name a
 * file ("location"), where the bytes start ("offset", default 0) and how
 * many there are ("length", default: to the end of the file).
 *
 * Key idea: a model must not make rxc read outside the model's folder.
 * The location is refused by its text first (empty, absolute, a ".."
 * component), then the folder and the file are resolved by realpath,
 * which follows symlinks without opening anything, and the file must lie
 * under the folder and be a regular file (stat, not open: a FIFO would
 * block).  Offset and length are checked against the file's size and the
 * tensor's shape before anything is allocated or read.
 */
#define _DEFAULT_SOURCE /* realpath (XSI) */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "onnx_int.h"

/* The value of external_data entry key of t, or NULL. */
static const char *
entry(const Onnx__TensorProto *t, const char *key)
{
  for (size_t i = 0; i < t->n_external_data; i++) {
    const Onnx__StringStringEntryProto *e = t->external_data[i];
    if (e->key && e->value && strcmp(e->key, key) == 0)
      return e->value;
  }
  return NULL;
}

/* A decimal size (digits only, within int64); false otherwise. */
static bool
parse_size(const char *s, int64_t *out)
{
  int64_t v = 0;
  if (!*s)
    return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || v > (INT64_MAX - (*s - '0')) / 10)
      return false;
    v = v * 10 + (*s - '0');
  }
  *out = v;
  return true;
}

/* Whether location reads as a path inside the folder: relative, with no
 * ".." component. */
static bool
location_inside(const char *location)
{
  if (!location[0] || location[0] == '/')
    return false;
  for (const char *p = location; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.')
      return false;
    p += n + (p[n] == '/');
  }
  return true;
}

/* The resolved path of location beside the model at im->path, in the
 * arena, when it lies under the model's resolved folder; NULL after
 * reporting. */
static char *
resolve(OxImp *im, const char *name, const char *location)
{
  const char *slash = strrchr(im->path, '/');
  const char *dir = slash ? ir_strdup(im->ctx, im->path, (size_t)(slash - im->path)) : ".";
  if (!dir[0])
    dir = "/";
  char *joined = ir_printf(im->ctx, "%s/%s", dir, location);
  char *rdir = realpath(dir, NULL);
  char *rfile = rdir ? realpath(joined, NULL) : NULL;
  int err = errno;
  char *kept = NULL;
  size_t n = rdir ? strlen(rdir) : 0;
  if (!rdir || !rfile)
    ir_error(im->ctx, im->loc, "tensor '%s': cannot find its external data '%s': %s", name,
             location, strerror(err));
  else if (strncmp(rfile, rdir, n) != 0 || (rfile[n] && rfile[n] != '/' && strcmp(rdir, "/")))
    ir_error(im->ctx, im->loc,
             "tensor '%s': external data location '%s' leaves the model's folder (it is %s)", name,
             location, rfile);
  else
    kept = ir_strdup(im->ctx, rfile, strlen(rfile));
  free(rdir);
  free(rfile);
  return kept;
}

/* Reads nbytes at offset of the regular file path into buf; false after
 * reporting. */
static bool
read_at(OxImp *im, const char *name, const char *path, int64_t offset, void *buf, size_t nbytes)
{
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    ir_error(im->ctx, im->loc, "tensor '%s': cannot open its external data '%s': %s", name, path,
             strerror(errno));
    return false;
  }
  size_t done = 0;
  while (done < nbytes) {
    ssize_t got = pread(fd, (char *)buf + done, nbytes - done, (off_t)offset + (off_t)done);
    if (got <= 0)
      break;
    done += (size_t)got;
  }
  close(fd);
  if (done != nbytes)
    ir_error(im->ctx, im->loc, "tensor '%s': cannot read %zu bytes of its external data '%s'", name,
             nbytes, path);
  return done == nbytes;
}

/* Reports "tensor 'name': msg"; false. */
static bool
refuse(OxImp *im, const char *name, const char *fmt, ...)
{
  IrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ir_error(im->ctx, im->loc, "tensor '%s': %s", name, b.data);
  ir_buf_free(&b);
  return false;
}

bool
fe_ox_extern_read(OxImp *im, const Onnx__TensorProto *t, IrTensorData *out)
{
  const char *name = t->name ? t->name : "";
  const char *location = entry(t, "location"), *off = entry(t, "offset"), *len = entry(t, "length");
  int64_t offset = 0, length = -1;
  if (!location)
    return refuse(im, name, "external data without a location");
  if (!location_inside(location))
    return refuse(im, name,
                  "external data location '%s' is not a relative path inside the model's folder",
                  location);
  if ((off && !parse_size(off, &offset)) || (len && !parse_size(len, &length)))
    return refuse(im, name, "external data offset '%s' or length '%s' is not a size",
                  off ? off : "", len ? len : "");
  char *path = resolve(im, name, location);
  struct stat st;
  if (!path)
    return false;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return refuse(im, name, "external data '%s' is not a regular file", location);
  if (offset > (int64_t)st.st_size || (length >= 0 && length > (int64_t)st.st_size - offset))
    return refuse(im, name,
                  "external data '%s' holds %lld bytes; offset %lld and length %lld ask past its "
                  "end",
                  location, (long long)st.st_size, (long long)offset, (long long)length);
  if (length < 0)
    length = (int64_t)st.st_size - offset;
  if ((uint64_t)length != out->nbytes)
    return refuse(im, name, "external data '%s' gives %lld bytes, its shape needs %zu", location,
                  (long long)length, out->nbytes);
  out->data = ir_alloc(im->ctx, out->nbytes ? out->nbytes : 1);
  return read_at(im, name, path, offset, out->data, out->nbytes);
}
