import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadModels } from "../../src/pipeline/models";
import { SentenceTransformerEmbedder, WordPieceTokenizer } from "../../src/ml/sentence-transformer";
import { DataType, encodeModel } from "../../models/onnx/graph";
import { Rng } from "../../models/data/rng";
import { requires, SHARED } from "../support/services";

/** The real all-MiniLM-L6-v2 tokenizer files, read in place (never copied into the repo). */
const TOKENIZER_DIR = resolve(SHARED, "models", "all-MiniLM-L6-v2-tokenizer");
const haveShared = await requires("shared");
const VOCAB = haveShared ? readFileSync(join(TOKENIZER_DIR, "vocab.txt"), "utf8").split("\n") : [];
const HIDDEN = 8;

/** Small random-weight graph of the sentence-transformers export shape: token + segment embeddings, scaled. */
function randomTransformerLike(seed: number): { bytes: Uint8Array; tokenTable: Float32Array; segmentTable: Float32Array } {
  const rng = new Rng(seed);
  const tokenTable = Float32Array.from({ length: VOCAB.length * HIDDEN }, () => rng.normal());
  const segmentTable = Float32Array.from({ length: 2 * HIDDEN }, () => rng.normal());
  const bytes = encodeModel({
    name: "tiny_bert_like",
    inputs: ["input_ids", "attention_mask", "token_type_ids"].map((name) => ({ name, elemType: DataType.INT64, shape: ["batch", "sequence"] })),
    outputs: [{ name: "last_hidden_state", elemType: DataType.FLOAT, shape: ["batch", "sequence", HIDDEN] }],
    initializers: [
      { name: "tokens", dims: [VOCAB.length, HIDDEN], data: tokenTable },
      { name: "segments", dims: [2, HIDDEN], data: segmentTable },
      { name: "last_axis", dims: [1], data: new BigInt64Array([-1n]) },
      { name: "one", dims: [], data: new Float32Array([1]) },
      { name: "big", dims: [], data: new Float32Array([1000]) },
    ],
    nodes: [
      { op: "Gather", inputs: ["tokens", "input_ids"], outputs: ["tok"], attributes: { axis: 0 } },
      { op: "Gather", inputs: ["segments", "token_type_ids"], outputs: ["seg"], attributes: { axis: 0 } },
      // Padding positions get a large value so that any pooling that fails to mask them shows.
      { op: "Cast", inputs: ["attention_mask"], outputs: ["mask_f"], attributes: { to: DataType.FLOAT } },
      { op: "Unsqueeze", inputs: ["mask_f", "last_axis"], outputs: ["mask_3d"] },
      { op: "Sub", inputs: ["one", "mask_3d"], outputs: ["pad_3d"] },
      { op: "Mul", inputs: ["pad_3d", "big"], outputs: ["pad_offset"] },
      { op: "Add", inputs: ["tok", "seg"], outputs: ["sum"] },
      { op: "Add", inputs: ["sum", "pad_offset"], outputs: ["last_hidden_state"] },
    ],
  });
  return { bytes, tokenTable, segmentTable };
}

let dir: string;
let vocabOnlyDir: string;
let model: ReturnType<typeof randomTransformerLike>;

beforeAll(() => {
  if (!haveShared) return;
  model = randomTransformerLike(3);
  dir = mkdtempSync(join(tmpdir(), "svc-st-"));
  vocabOnlyDir = mkdtempSync(join(tmpdir(), "svc-st-vocab-"));
  for (const f of ["tokenizer.json", "tokenizer_config.json", "vocab.txt"]) symlinkSync(join(TOKENIZER_DIR, f), join(dir, f));
  for (const f of ["tokenizer_config.json", "vocab.txt"]) symlinkSync(join(TOKENIZER_DIR, f), join(vocabOnlyDir, f));
  writeFileSync(join(dir, "model.onnx"), model.bytes);
});

afterAll(() => {
  if (!haveShared) return;
  rmSync(dir, { recursive: true, force: true });
  rmSync(vocabOnlyDir, { recursive: true, force: true });
});

describe.skipIf(!haveShared)("WordPiece tokenizer of a sentence-transformers export", () => {
  test("lowercases, wraps in [CLS] ... [SEP] and splits unknown words into ##pieces", async () => {
    const tok = await WordPieceTokenizer.load(dir);
    const e = tok.encode("Hello World, unaffable tokenization!");
    expect(e.tokens).toEqual(["[CLS]", "hello", "world", ",", "una", "##ffa", "##ble", "token", "##ization", "!", "[SEP]"]);
    // Ids are the tokens' line numbers in vocab.txt.
    expect(e.ids).toEqual(e.tokens.map((t) => VOCAB.indexOf(t)));
    expect(e.ids[0]).toBe(101);
    expect(e.ids[e.ids.length - 1]).toBe(102);
  });

  test("vocab.txt alone tokenizes exactly like tokenizer.json", async () => {
    const [full, bare] = await Promise.all([WordPieceTokenizer.load(dir), WordPieceTokenizer.load(vocabOnlyDir)]);
    for (const s of ["Hello World, unaffable tokenization!", "  Ünïcödé ACCENTS and   spaces\t", "GPT-4o costs $5.00/1M tokens", "東京 is a city", ""]) {
      expect(bare.encode(s)).toEqual(full.encode(s));
    }
  });

  test("cuts long input to the model maximum and keeps the closing [SEP]", async () => {
    const tok = await WordPieceTokenizer.load(dir);
    const e = tok.encode("word ".repeat(2000));
    expect(e.ids.length).toBe(tok.maxLength);
    expect(e.ids[e.ids.length - 1]).toBe(102);
  });
});

describe.skipIf(!haveShared)("SentenceTransformerEmbedder", () => {
  test("mean-pools the hidden states over the attention mask, then L2-normalizes", async () => {
    const embedder = await SentenceTransformerEmbedder.load(dir);
    expect(embedder.dimensions).toBe(HIDDEN);
    const ids = embedder.tokenizer.encode("A man plays the guitar.").ids;
    const expected = new Float64Array(HIDDEN);
    for (const id of ids) for (let d = 0; d < HIDDEN; d++) expected[d]! += (model.tokenTable[id * HIDDEN + d]! + model.segmentTable[d]!) / ids.length;
    const n = Math.hypot(...expected);
    const v = await embedder.embed("A man plays the guitar.");
    for (let d = 0; d < HIDDEN; d++) expect(v[d]!).toBeCloseTo(expected[d]! / n, 5);
  });

  test("padding in a batch does not change a text's vector", async () => {
    const embedder = await SentenceTransformerEmbedder.load(dir);
    const [short, long] = await embedder.embedBatch(["short text", "a much longer text with many more tokens than the first one"]);
    const alone = await embedder.embed("short text");
    for (let d = 0; d < HIDDEN; d++) expect(short![d]!).toBeCloseTo(alone[d]!, 5);
    expect(Math.hypot(...long!)).toBeCloseTo(1, 5);
  });

  test("loadModels uses it for embed, while classify and quality keep the shipped embedding", async () => {
    const models = await loadModels(undefined, { sentenceTransformerDir: dir });
    expect(models.embedder.dimensions).toBe(HIDDEN);
    const v = await models.embed("Translate to German: good night");
    expect(v.length).toBe(HIDDEN);
    // An embedding of another width is not fed to the classifier; it embeds the text itself.
    expect((await models.classify("Translate to German: good night", v)).task).toBe("translate");
    expect((await models.quality("Explain recursion.", "Explain recursion.")).score).toBe(100);
  });
});
