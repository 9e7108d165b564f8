// HF tokenizers (Rust, npm tokenizers@0.23.2) throughput on the same texts as tokenizer_bench:
//   node bench_rust.mjs <tokenizer.json> <label=file>...
// Prints, per text, tokens and warm k tokens/s (best of 3 after one cold run), one encode of
// the whole text with add_special_tokens=false.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(process.env.TOKENIZERS_NODE_MODULES + '/');
const { Tokenizer } = require('tokenizers');

const [tokPath, ...texts] = process.argv.slice(2);
const tok = Tokenizer.fromFile(tokPath);
for (const spec of texts) {
  const [label, file] = spec.split('=');
  const text = readFileSync(file, 'utf8');
  let tokens = 0;
  const run = async () => {
    const t0 = process.hrtime.bigint();
    const enc = await tok.encode(text, null, { addSpecialTokens: false });
    tokens = enc.getIds().length;
    return Number(process.hrtime.bigint() - t0) / 1e9;
  };
  const cold = await run();
  let warm = Infinity;
  for (let i = 0; i < 3; i++) warm = Math.min(warm, await run());
  console.log(`  ${label.padEnd(8)} ${String(tokens).padStart(8)} tokens  cold ${(tokens / cold / 1e3).toFixed(0).padStart(7)} k tok/s  warm ${(tokens / warm / 1e3).toFixed(0).padStart(7)} k tok/s`);
}
