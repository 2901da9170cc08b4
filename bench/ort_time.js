// ort_time.js - times one ONNX model under ONNX Runtime (npm's
// onnxruntime-node, CPU, one intra-op and one inter-op thread), for
// bench/real_models.py:
//
//   node ort_time.js MODEL.onnx IN.bin DIM,DIM,... OUT.bin
//
// IN.bin is the model's one float32 input, raw little-endian, of the given
// shape; OUT.bin receives its first output the same way.  Prints one JSON
// object: {"ms": the median CPU time of one run (of the process, user +
// system), "wall_ms": the median wall time, "runs": how many}.  ORT_NODE
// names the package's folder.
'use strict';
const fs = require('fs');
const ort = require(process.env.ORT_NODE || 'onnxruntime-node');

async function main() {
  const [model, inPath, dims, outPath] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const raw = fs.readFileSync(inPath);
  const data = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const shape = dims.split(',').map(Number);
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, shape)};
  let out = null;
  for (let i = 0; i < 3; i++)
    out = await session.run(feeds);
  const times = [], cpu = [];
  const start = process.hrtime.bigint();
  while (times.length < 5 || (times.length < 200 && Number(process.hrtime.bigint() - start) < 2e9)) {
    const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
    out = await session.run(feeds);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e3);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const result = out[session.outputNames[0]].data;
  fs.writeFileSync(outPath, Buffer.from(result.buffer, result.byteOffset, result.byteLength));
  console.log(JSON.stringify({ms: cpu[cpu.length >> 1], wall_ms: times[times.length >> 1],
                              runs: times.length}));
}

main().catch((e) => {
  console.error('ort_time: ' + (e && e.message ? e.message : e));
  process.exit(1);
});
