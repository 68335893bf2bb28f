import { ModelProto } from "./proto";

/** ONNX TensorProto.DataType codes of the element types we use. */
export const DataType = { FLOAT: 1, INT8: 3, INT32: 6, INT64: 7 } as const;
export type ElemType = (typeof DataType)[keyof typeof DataType];

type Typed = Float32Array | Int8Array | Int32Array | BigInt64Array;

export interface Initializer {
  name: string;
  dims: number[];
  data: Typed;
}

export interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, number | number[] | string>;
  /** Attributes that ONNX types as float even when the value is integral (e.g. LeakyRelu alpha). */
  floatAttributes?: Record<string, number>;
}

export interface ValueInfo {
  name: string;
  elemType: ElemType;
  /** Numbers are fixed sizes; strings are symbolic (dynamic) dimensions. */
  shape: (number | string)[];
}

export interface GraphSpec {
  name: string;
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  initializers: Initializer[];
  nodes: Node[];
  /** Key/value pairs stored in the model's metadata_props. */
  metadata?: Record<string, string>;
  opset?: number;
}

function elemTypeOf(data: Typed): ElemType {
  if (data instanceof Float32Array) return DataType.FLOAT;
  if (data instanceof Int8Array) return DataType.INT8;
  if (data instanceof Int32Array) return DataType.INT32;
  return DataType.INT64;
}

function valueInfo(v: ValueInfo) {
  return {
    name: v.name,
    type: { tensorType: { elemType: v.elemType, shape: { dim: v.shape.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })) } } },
  };
}

function attribute(name: string, value: number | number[] | string, asFloat: boolean) {
  if (typeof value === "string") return { name, type: 3, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: 7, ints: value };
  return asFloat ? { name, type: 1, f: value } : { name, type: 2, i: value };
}

/** Serialize a graph as an ONNX model (IR version 8; default opset 17). Tensor data is stored little-endian raw. */
export function encodeModel(spec: GraphSpec): Uint8Array {
  const model = {
    irVersion: 8,
    opsetImport: [{ domain: "", version: spec.opset ?? 17 }],
    producerName: "svc-models",
    graph: {
      name: spec.name,
      input: spec.inputs.map(valueInfo),
      output: spec.outputs.map(valueInfo),
      initializer: spec.initializers.map((t) => ({
        name: t.name,
        dims: t.dims,
        dataType: elemTypeOf(t.data),
        rawData: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
      })),
      node: spec.nodes.map((n, i) => ({
        name: `${n.op}_${i}`,
        opType: n.op,
        input: n.inputs,
        output: n.outputs,
        attribute: [
          ...Object.entries(n.attributes ?? {}).map(([k, v]) => attribute(k, v, false)),
          ...Object.entries(n.floatAttributes ?? {}).map(([k, v]) => attribute(k, v, true)),
        ],
      })),
    },
    metadataProps: Object.entries(spec.metadata ?? {}).map(([key, value]) => ({ key, value })),
  };
  const err = ModelProto.verify(model);
  if (err) throw new Error(`invalid ONNX model: ${err}`);
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}
