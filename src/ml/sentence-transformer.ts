import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import * as ort from "onnxruntime-node";
import { type OnnxSession, openSession } from "./onnx-session";
import type { Embedder } from "./types";

interface TokenizerConfig {
  do_lower_case?: boolean;
  model_max_length?: number;
  cls_token?: string;
  sep_token?: string;
  unk_token?: string;
  pad_token?: string;
}

/**
 * A BERT WordPiece tokenizer.json built from a bare vocab.txt, for exports that ship no tokenizer.json:
 * the same normalizer, pre-tokenizer, model and [CLS] A [SEP] template that BertTokenizerFast writes.
 */
function wordPieceFromVocab(vocabText: string, config: TokenizerConfig): object {
  const vocab: Record<string, number> = {};
  vocabText.split(/\r?\n/).forEach((token, id) => {
    if (token !== "" && !(token in vocab)) vocab[token] = id;
  });
  const cls = config.cls_token ?? "[CLS]";
  const sep = config.sep_token ?? "[SEP]";
  const special = [config.pad_token ?? "[PAD]", config.unk_token ?? "[UNK]", cls, sep, "[MASK]"].filter((t) => t in vocab);
  return {
    version: "1.0",
    added_tokens: special.map((content) => ({
      id: vocab[content],
      content,
      special: true,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
    })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: config.do_lower_case ?? true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: cls, type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: sep, type_id: 0 } }],
      pair: [
        { SpecialToken: { id: cls, type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: sep, type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: sep, type_id: 1 } },
      ],
      special_tokens: { [cls]: { id: cls, ids: [vocab[cls]], tokens: [cls] }, [sep]: { id: sep, ids: [vocab[sep]], tokens: [sep] } },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: config.unk_token ?? "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab },
  };
}

async function readJson<T>(path: string): Promise<T | undefined> {
  return existsSync(path) ? (JSON.parse(await readFile(path, "utf8")) as T) : undefined;
}

/** Token ids of one text as the model takes them: [CLS] pieces [SEP], cut to the model's maximum length. */
export interface Encoded {
  ids: number[];
  tokens: string[];
}

/** The WordPiece tokenizer of a sentence-transformers export (tokenizer.json, or vocab.txt alone). */
export class WordPieceTokenizer {
  private constructor(
    private readonly tokenizer: Tokenizer,
    readonly maxLength: number,
  ) {}

  static async load(dir: string): Promise<WordPieceTokenizer> {
    const config = (await readJson<TokenizerConfig>(join(dir, "tokenizer_config.json"))) ?? {};
    const stConfig = await readJson<{ max_seq_length?: number }>(join(dir, "sentence_bert_config.json"));
    let json = await readJson<object>(join(dir, "tokenizer.json"));
    if (!json) {
      if (!existsSync(join(dir, "vocab.txt"))) throw new Error(`${dir}: neither tokenizer.json nor vocab.txt found`);
      json = wordPieceFromVocab(await readFile(join(dir, "vocab.txt"), "utf8"), config);
    }
    const maxLength = Math.min(stConfig?.max_seq_length ?? config.model_max_length ?? 512, 512);
    return new WordPieceTokenizer(new Tokenizer(json, config), maxLength);
  }

  encode(text: string): Encoded {
    const { ids, tokens } = this.tokenizer.encode(text);
    if (ids.length <= this.maxLength) return { ids, tokens };
    // Keep the closing [SEP]: the model was trained with one at the end of every sequence.
    return { ids: [...ids.slice(0, this.maxLength - 1), ids[ids.length - 1]!], tokens: [...tokens.slice(0, this.maxLength - 1), tokens[tokens.length - 1]!] };
  }
}

function findModelFile(dir: string): string {
  for (const name of ["model.onnx", join("onnx", "model.onnx")]) if (existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${dir}: no model.onnx (or onnx/model.onnx)`);
}

/**
 * A standard sentence-transformers ONNX export as an Embedder: WordPiece ids, `input_ids` /
 * `attention_mask` / `token_type_ids` in, `last_hidden_state` out, mean pooling over the attention mask,
 * then L2 normalization, as sentence-transformers' Pooling + Normalize modules do.
 */
export class SentenceTransformerEmbedder implements Embedder {
  private constructor(
    private readonly session: OnnxSession,
    readonly tokenizer: WordPieceTokenizer,
    readonly dimensions: number,
  ) {}

  static async load(dir: string): Promise<SentenceTransformerEmbedder> {
    const tokenizer = await WordPieceTokenizer.load(dir);
    const session = openSession(findModelFile(dir));
    for (const name of ["input_ids", "attention_mask"]) if (!session.inputNames.includes(name)) throw new Error(`${dir}: model has no input ${name}`);
    // The width of the hidden state is only known once the model has run.
    const probe = await new SentenceTransformerEmbedder(session, tokenizer, 0).embedBatch(["dimension probe"]);
    return new SentenceTransformerEmbedder(session, tokenizer, probe[0]!.length);
  }

  async embed(text: string): Promise<Float32Array> {
    return (await this.embedBatch([text]))[0]!;
  }

  /** Embed several texts in one run, right-padded to the longest; padding is masked out of the mean. */
  async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const encoded = texts.map((t) => this.tokenizer.encode(t).ids);
    const n = texts.length;
    const len = Math.max(...encoded.map((e) => e.length));
    const ids = new BigInt64Array(n * len);
    const mask = new BigInt64Array(n * len);
    encoded.forEach((e, row) =>
      e.forEach((id, i) => {
        ids[row * len + i] = BigInt(id);
        mask[row * len + i] = 1n;
      }),
    );
    const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor("int64", ids, [n, len]), attention_mask: new ort.Tensor("int64", mask, [n, len]) };
    if (this.session.inputNames.includes("token_type_ids")) feeds.token_type_ids = new ort.Tensor("int64", new BigInt64Array(n * len), [n, len]);
    const result = this.session.run(feeds);
    const out = (result.last_hidden_state ?? result[this.session.outputNames[0]!]!) as ort.Tensor;
    const hidden = out.data as Float32Array;
    const width = out.dims[out.dims.length - 1]!;
    return encoded.map((e, row) => {
      const v = new Float32Array(width);
      for (let i = 0; i < e.length; i++) {
        const base = (row * len + i) * width;
        for (let d = 0; d < width; d++) v[d]! += hidden[base + d]!;
      }
      let norm = 0;
      for (let d = 0; d < width; d++) norm += v[d]! * v[d]!;
      // Mean then normalize equals normalize of the sum: the 1/count factor cancels.
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let d = 0; d < width; d++) v[d]! *= scale;
      return v;
    });
  }
}
