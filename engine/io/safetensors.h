#pragma once
/// A small, bounds-checked reader and writer for the safetensors format
/// (8-byte little-endian header length, a JSON header, then the raw tensor bytes).
/// Every value is read into float32: F32 as is, F16 and BF16 exactly, F64 rounded.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// A file that is not valid safetensors, or does not hold what was asked for.
class FormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Tensor {
    std::string dtype; ///< as stored: F32, F64, F16 or BF16
    std::vector<std::int64_t> shape;
    std::vector<float> values; ///< row-major, converted to float32

    std::int64_t numel() const;
};

struct TensorFile {
    std::map<std::string, Tensor> tensors;
    std::map<std::string, std::string> metadata;
};

/// Parses the bytes of a safetensors file. Throws FormatError naming what is wrong.
TensorFile parseSafetensors(std::string_view bytes);
/// Reads and parses a file. Throws FormatError (also for a missing or unreadable file).
TensorFile readSafetensors(const std::string& path);

/// The bytes of a safetensors file holding `file` as F32, keys sorted.
std::string serializeSafetensors(const TensorFile& file);

/// Conversions of the 16-bit formats (exact).
float halfToFloat(std::uint16_t bits);
float bfloat16ToFloat(std::uint16_t bits);

} // namespace attnlab
