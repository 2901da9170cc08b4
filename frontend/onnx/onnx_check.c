/*
 * onnx_check.c - what a decoded ONNX model must satisfy before any node is
 * converted, so that the converters, which index their inputs and read
 * their attributes without asking again, only see what ONNX allows.
 *
 * Checked, in this order, each failure reported once naming the node,
 * tensor or value, and the first one stops the import: the default
 * domain's opset is one rxc knows (OX_OPSET_MIN to OX_OPSET_MAX); names
 * are at most MAX_NAME bytes; the graph inputs and initializers are named
 * and declared once each (sparse initializers are refused); every node
 * has an op_type and an output, and as many inputs and
 * outputs as its schema allows at that opset, and attributes of the type
 * the schema gives (onnx_schema.c); every name is assigned once (ONNX
 * graphs are single-assignment: no node output may be a graph input, an
 * initializer or another node's output); every input a node reads is
 * defined by an earlier node (a later one means a cycle, whose node is
 * named, or nodes out of topological order); the graph has outputs and
 * each is computed.  Name lookups go through interned symbols and hash
 * maps, and the cycle search is iterative, so a graph of a million nodes
 * is checked in linear time without deep recursion.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_int.h"

#define MAX_NAME 4096 /* bytes in a name; real exporters stay under a few hundred */

typedef struct {
  OxImp *im;
  const Onnx__GraphProto *g;
  IrMap defined;  /* IrSym -> "a graph input" or "an initializer" */
  IrMap producer; /* IrSym -> (void *)(index + 1) of the node computing it */
} Check;

/* "node 'name' (Op)", or "node #i (Op)" for a node without a name. */
static const char *
node_label(const Check *c, size_t i)
{
  const Onnx__NodeProto *n = c->g->node[i];
  const char *op = n->op_type ? n->op_type : "";
  if (n->name && n->name[0])
    return ir_printf(c->im->ctx, "node '%.64s%s' (%.64s)", n->name,
                     strlen(n->name) > 64 ? "..." : "", op);
  return ir_printf(c->im->ctx, "node #%zu (%.64s)", i, op);
}

/* Reports the problem; false. */
static bool
fail(const Check *c, const char *fmt, ...)
{
  IrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ir_error(c->im->ctx, c->im->loc, "%s", b.data);
  ir_buf_free(&b);
  return false;
}

/* The default domain is "" or "ai.onnx"; one version of it, in range. */
static bool
check_opsets(const Check *c, const Onnx__ModelProto *model)
{
  int seen = 0;
  for (size_t i = 0; i < model->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = model->opset_import[i];
    if (o->domain && o->domain[0] && strcmp(o->domain, "ai.onnx") != 0)
      continue; /* other domains: refused by the node that uses one */
    if (seen++)
      return fail(c, "opset_import names the default domain twice");
    if (o->has_version && (o->version < OX_OPSET_MIN || o->version > OX_OPSET_MAX))
      return fail(c,
                  "opset %lld of the default domain is not supported (rxc reads opsets %d to %d)",
                  (long long)o->version, OX_OPSET_MIN, OX_OPSET_MAX);
  }
  return true;
}

/* A name of at most MAX_NAME bytes; what says whose. */
static bool
check_name(const Check *c, const char *what, const char *name)
{
  size_t n = name ? strlen(name) : 0;
  if (n <= MAX_NAME)
    return true;
  return fail(c, "%s: a name of %zu bytes ('%.32s...'); rxc takes at most %d", what, n, name,
              MAX_NAME);
}

static const char *
attr_type_name(int type)
{
  static const char *const names[] = {"UNDEFINED",      "FLOAT",      "INT",        "STRING",
                                      "TENSOR",         "GRAPH",      "FLOATS",     "INTS",
                                      "STRINGS",        "TENSORS",    "GRAPHS",     "SPARSE_TENSOR",
                                      "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"};
  return type >= 0 && type < (int)(sizeof names / sizeof names[0]) ? names[type] : "unknown";
}

/* The counts in force at opset for op_type; NULL for an operator rxc does
 * not convert (the table is sorted by operator, then opset). */
static const OxArity *
arity(const char *op_type, int64_t opset)
{
  const OxArity *found = NULL;
  for (const OxArity *a = fe_ox_arities; a->op_type; a++)
    if (strcmp(a->op_type, op_type) == 0 && (a->since <= opset || !found))
      found = a;
  return found;
}

/* The type ONNX gives attribute name of op_type; -1 when unknown. */
static int
attr_type(const char *op_type, const char *name)
{
  for (const OxAttrType *a = fe_ox_attr_types; a->name; a++)
    if (strcmp(a->name, name) == 0 && (!a->op_type || strcmp(a->op_type, op_type) == 0))
      return (int)a->type;
  return -1;
}

/* "2", "1 to 3" or "at least 1" (a variadic maximum). */
static const char *
count_range(const Check *c, int min, int max)
{
  if (min == max)
    return ir_printf(c->im->ctx, "%d", min);
  if (max >= 1 << 30)
    return ir_printf(c->im->ctx, "at least %d", min);
  return ir_printf(c->im->ctx, "%d to %d", min, max);
}

/* Node i's outputs, input and output counts, attribute types and names. */
static bool
check_node_form(const Check *c, size_t i)
{
  const Onnx__NodeProto *n = c->g->node[i];
  const char *label = node_label(c, i);
  if (!check_name(c, label, n->name) || !check_name(c, label, n->op_type))
    return false;
  for (size_t k = 0; k < n->n_input; k++)
    if (!check_name(c, label, n->input[k]))
      return false;
  for (size_t k = 0; k < n->n_output; k++)
    if (!check_name(c, label, n->output[k]))
      return false;
  if (!n->op_type || !n->op_type[0])
    return fail(c, "%s has no op_type", label);
  if (n->n_output == 0)
    return fail(c, "%s has no outputs", label);
  bool onnx_domain = !n->domain || !n->domain[0] || strcmp(n->domain, "ai.onnx") == 0;
  const OxArity *a = onnx_domain ? arity(n->op_type ? n->op_type : "", c->im->opset) : NULL;
  if (a && (n->n_input < (size_t)a->min_in || n->n_input > (size_t)a->max_in))
    return fail(c, "%s has %zu input%s; at opset %lld it takes %s", label, n->n_input,
                n->n_input == 1 ? "" : "s", (long long)c->im->opset,
                count_range(c, a->min_in, a->max_in));
  if (a && (n->n_output < (size_t)a->min_out || n->n_output > (size_t)a->max_out))
    return fail(c, "%s has %zu output%s; at opset %lld it gives %s", label, n->n_output,
                n->n_output == 1 ? "" : "s", (long long)c->im->opset,
                count_range(c, a->min_out, a->max_out));
  for (size_t k = 0; a && k < n->n_attribute; k++) { /* other operators are refused later */
    const Onnx__AttributeProto *at = n->attribute[k];
    int want = at->name ? attr_type(n->op_type ? n->op_type : "", at->name) : -1;
    if (want >= 0 && at->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED &&
        (int)at->type != want)
      return fail(c, "%s: attribute '%s' is %s; ONNX defines it as %s", label, at->name,
                  attr_type_name((int)at->type), attr_type_name(want));
  }
  return true;
}

/* The graph inputs and initializers, each declared once. */
static bool
check_definitions(Check *c)
{
  IrCtx *ctx = c->im->ctx;
  for (size_t i = 0; i < c->g->n_input; i++) {
    const char *name = c->g->input[i]->name ? c->g->input[i]->name : "";
    if (!name[0])
      return fail(c, "graph input #%zu has no name", i);
    if (!check_name(c, "graph input", name))
      return false;
    IrSym s = ir_sym(ctx, name);
    if (ir_map_has(&c->defined, s))
      return fail(c, "graph input '%s' is declared twice", name);
    ir_map_put(&c->defined, s, "a graph input");
  }
  IrMap inits;
  ir_map_init_arena(&inits, ctx);
  for (size_t i = 0; i < c->g->n_initializer; i++) {
    const char *name = c->g->initializer[i]->name ? c->g->initializer[i]->name : "";
    if (!name[0])
      return fail(c, "initializer #%zu has no name", i);
    if (!check_name(c, "initializer", name))
      return false;
    IrSym s = ir_sym(ctx, name);
    if (ir_map_has(&inits, s))
      return fail(c, "initializer '%s' is given twice", name);
    ir_map_put(&inits, s, "an initializer");
    if (!ir_map_has(&c->defined, s)) /* an initializer may also be listed as an input */
      ir_map_put(&c->defined, s, "an initializer");
  }
  if (c->g->n_sparse_initializer > 0) {
    const Onnx__TensorProto *v = c->g->sparse_initializer[0]->values;
    return fail(c, "sparse initializer '%.64s' is not supported", v && v->name ? v->name : "");
  }
  return true;
}

/* Every node output assigned once: records its producer. */
static bool
check_single_assignment(Check *c)
{
  for (size_t i = 0; i < c->g->n_node; i++) {
    const Onnx__NodeProto *n = c->g->node[i];
    for (size_t k = 0; k < n->n_output; k++) {
      if (!n->output[k][0])
        continue; /* an omitted optional output */
      IrSym s = ir_sym(c->im->ctx, n->output[k]);
      const char *what = ir_map_get(&c->defined, s);
      if (what)
        return fail(c, "%s: output '%s' is already %s (ONNX assigns each name once)",
                    node_label(c, i), n->output[k], what);
      void *p = ir_map_get(&c->producer, s);
      if (p)
        return fail(c, "%s: output '%s' is already computed by %s (ONNX assigns each name once)",
                    node_label(c, i), n->output[k], node_label(c, (size_t)(uintptr_t)p - 1));
      ir_map_put(&c->producer, s, (void *)(uintptr_t)(i + 1));
    }
  }
  return true;
}

/* Whether node target is reached from node from by following inputs back
 * to the nodes computing them (depth-first, with an explicit stack). */
static bool
reaches(const Check *c, size_t from, size_t target)
{
  size_t n = c->g->n_node, top = 0;
  size_t *stack = ir_xmalloc(sizeof *stack * n);
  bool *seen = ir_xmalloc(n), found = false;
  memset(seen, 0, n);
  stack[top++] = from;
  seen[from] = true;
  while (top > 0 && !found) {
    const Onnx__NodeProto *node = c->g->node[stack[--top]];
    for (size_t k = 0; k < node->n_input && !found; k++) {
      void *p =
          node->input[k][0] ? ir_map_get(&c->producer, ir_sym(c->im->ctx, node->input[k])) : NULL;
      size_t j = p ? (size_t)(uintptr_t)p - 1 : 0;
      found = p && j == target;
      if (p && !seen[j] && !found) {
        seen[j] = true;
        stack[top++] = j;
      }
    }
  }
  free(stack);
  free(seen);
  return found;
}

/* Every input a node reads is defined before it. */
static bool
check_uses(const Check *c)
{
  for (size_t i = 0; i < c->g->n_node; i++) {
    const Onnx__NodeProto *n = c->g->node[i];
    for (size_t k = 0; k < n->n_input; k++) {
      const char *name = n->input[k];
      IrSym s = ir_sym(c->im->ctx, name);
      if (!name[0] || ir_map_has(&c->defined, s))
        continue;
      void *p = ir_map_get(&c->producer, s);
      size_t j = p ? (size_t)(uintptr_t)p - 1 : 0;
      if (!p)
        return fail(c,
                    "%s: input '%s' is not a graph input, an initializer nor the output of "
                    "any node",
                    node_label(c, i), name);
      if (j == i || (j > i && reaches(c, j, i)))
        return fail(c, "%s is on a cycle: its input '%s' depends on its own output",
                    node_label(c, i), name);
      if (j > i)
        return fail(c,
                    "%s reads '%s' before %s computes it (ONNX nodes must be in topological "
                    "order)",
                    node_label(c, i), name, node_label(c, j));
    }
  }
  return true;
}

/* The graph has outputs, each a graph input, an initializer or a node's. */
static bool
check_outputs(const Check *c)
{
  if (c->g->n_output == 0)
    return fail(c, "the graph has no outputs");
  for (size_t i = 0; i < c->g->n_output; i++) {
    const char *name = c->g->output[i]->name ? c->g->output[i]->name : "";
    IrSym s = ir_sym(c->im->ctx, name);
    if (!check_name(c, "graph output", name))
      return false;
    if (!name[0])
      return fail(c, "graph output #%zu has no name", i);
    if (!ir_map_has(&c->defined, s) && !ir_map_has(&c->producer, s))
      return fail(c, "graph output '%s' is not computed by any node", name);
  }
  return true;
}

bool
fe_ox_model_check(OxImp *im, const Onnx__ModelProto *model)
{
  Check c = {.im = im, .g = model->graph};
  if (!check_opsets(&c, model))
    return false;
  ir_map_init_arena(&c.defined, im->ctx);
  ir_map_init_arena(&c.producer, im->ctx);
  if (!check_definitions(&c))
    return false;
  for (size_t i = 0; i < c.g->n_node; i++)
    if (!check_node_form(&c, i))
      return false;
  return check_single_assignment(&c) && check_uses(&c) && check_outputs(&c);
}
