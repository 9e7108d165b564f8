// Reference ids/text from HuggingFace tokenizers (Rust, npm tokenizers@0.23.2), the library
// transformers' fast tokenizers run, for verify_npm.sh:
//   node hf_reference.mjs encode <tokenizer.json> < {"text"} lines  > {"ids"} lines
//   node hf_reference.mjs decode <tokenizer.json> < {"ids","skip_special_tokens"} lines > {"text"} lines
// Encoding uses add_special_tokens=false, as AIPerf counts tokens.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(process.env.TOKENIZERS_NODE_MODULES + '/');
const { Tokenizer } = require('tokenizers');

const [mode, tokPath] = process.argv.slice(2);
const tok = Tokenizer.fromFile(tokPath);
const lines = readFileSync(0, 'utf8').split('\n').filter((l) => l.length > 0);
const out = [];
for (const line of lines) {
  const obj = JSON.parse(line);
  if (mode === 'encode') {
    const enc = await tok.encode(obj.text, null, { addSpecialTokens: false });
    out.push(JSON.stringify({ ids: Array.from(enc.getIds()) }));
  } else {
    out.push(JSON.stringify({ text: await tok.decode(obj.ids, obj.skip_special_tokens) }));
  }
}
process.stdout.write(out.join('\n') + '\n');
