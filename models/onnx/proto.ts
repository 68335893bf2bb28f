import protobuf from "protobufjs";

/**
 * The subset of onnx.proto (field numbers as in onnx/onnx.proto3, IR version 8) needed to write the
 * models we train: plain tensors, attributes, nodes and a single graph.
 */
const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message AttributeProto {
  enum AttributeType { UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; GRAPH = 5; FLOATS = 6; INTS = 7; STRINGS = 8; }
  string name = 1;
  AttributeType type = 20;
  float f = 2;
  int64 i = 3;
  bytes s = 4;
  TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  repeated bytes strings = 9;
}
message ValueInfoProto { string name = 1; TypeProto type = 2; string doc_string = 3; }
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  string domain = 7;
  repeated AttributeProto attribute = 5;
}
message StringStringEntryProto { string key = 1; string value = 2; }
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
message ModelProto {
  int64 ir_version = 1;
  repeated OperatorSetIdProto opset_import = 8;
  string producer_name = 2;
  string producer_version = 3;
  string doc_string = 6;
  GraphProto graph = 7;
  repeated StringStringEntryProto metadata_props = 14;
}
message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  string doc_string = 10;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1;
  int32 data_type = 2;
  string name = 8;
  bytes raw_data = 9;
}
message TensorShapeProto {
  message Dimension { oneof value { int64 dim_value = 1; string dim_param = 2; } }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { int32 elem_type = 1; TensorShapeProto shape = 2; }
  oneof value { Tensor tensor_type = 1; }
}
`;

export const ModelProto = protobuf.parse(ONNX_PROTO).root.lookupType("onnx.ModelProto");
