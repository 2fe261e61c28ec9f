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

#include "core/message.h"

namespace attnlab {

/// A file that is not valid safetensors, or does not hold what was asked for.
class FormatError : public MessageError<std::runtime_error> {
public:
    explicit FormatError(Message message)
        : MessageError(std::move(message))
    {
    }
    /// A refusal not yet in a message table (code "format_error"): shown in English.
    explicit FormatError(const std::string& text)
        : MessageError(Message{"format_error", {}, text})
    {
    }
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

/// The number of values of a tensor of this shape (1 for a scalar, shape []).
std::int64_t shapeProduct(const std::vector<std::int64_t>& shape);

/// Where one tensor lies in a safetensors file, as its header says (checked against the file).
struct TensorEntry {
    std::string dtype; ///< any safetensors dtype: F32, F64, F16, BF16, I64, I32, …, U8, BOOL
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0; ///< byte range [begin, end) in the data section
    std::uint64_t end = 0;

    std::int64_t numel() const;
};

/// A safetensors file's header: every tensor's place, the metadata, and where the data begins.
struct SafetensorsLayout {
    std::map<std::string, TensorEntry> tensors;
    std::map<std::string, std::string> metadata;
    std::uint64_t dataOffset = 0; ///< bytes before the data section (8 + the header's length)
};

/// Parses and checks the header of a safetensors file (`bytes` is the whole file: every range must
/// lie inside it, no two may overlap, sizes must match shapes and dtypes). Throws FormatError.
SafetensorsLayout parseSafetensorsLayout(std::string_view bytes);
/// F32, F64, F16 or BF16: the dtypes convertToFloat reads.
bool isFloatDtype(const std::string& dtype);
/// Converts one tensor's values to float32 (row-major) into `out` (numel() floats); `data` is
/// the start of the data section. Throws FormatError for a dtype that is not a float.
void convertToFloat(const TensorEntry& entry, const char* data, float* out);

/// Parses the bytes of a safetensors file. Throws FormatError naming what is wrong.
TensorFile parseSafetensors(std::string_view bytes);
/// Reads and parses a file. Throws FormatError (also for a missing or unreadable file).
TensorFile readSafetensors(const std::string& path);

/// The bytes of a safetensors file holding `file` as F32, keys sorted.
std::string serializeSafetensors(const TensorFile& file);
/// The name of the first tensor (in key order) holding NaN or infinity; empty when all are finite.
std::string nonFiniteTensor(const TensorFile& file);
/// Writes `file` to `path` (serializeSafetensors, then writeFileAtomically), unless a value is
/// not finite: a model or a gradient that holds NaN or infinity is never saved, and an earlier
/// file at `path` stays as it was. Throws FileError (cannot_write, reason "non_finite", naming
/// the first such tensor), or as writeFileAtomically.
void writeSafetensors(const std::string& path, const TensorFile& file);

/// Conversions of the 16-bit formats (exact).
float halfToFloat(std::uint16_t bits);
float bfloat16ToFloat(std::uint16_t bits);

} // namespace attnlab
