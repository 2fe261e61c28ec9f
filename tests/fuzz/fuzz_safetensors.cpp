// parseSafetensors on arbitrary bytes (io/safetensors.h). A file it accepts must be written
// back by serializeSafetensors and read again to the same tensors and metadata.

#include "fuzz.h"

#include "io/safetensors.h"

#include <bit>
#include <cstring>

using namespace attnlab;

namespace {

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    // Bit for bit: NaN payloads and signed zeros must survive as F32.
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto parsed = fuzz::attempt<FormatError>([&] { return parseSafetensors(fuzz::text(data, size)); });
    if (!parsed)
        return 0;
    const TensorFile& file = *parsed;

    for (const auto& [name, t] : file.tensors) {
        FUZZ_CHECK(t.dtype == "F32" || t.dtype == "F64" || t.dtype == "F16" || t.dtype == "BF16");
        FUZZ_CHECK(t.numel() >= 0 && static_cast<std::uint64_t>(t.numel()) == t.values.size());
    }
    // Written as F32 and read back: the same tensors, the same metadata. Not a rejection: the
    // reader must accept what the writer makes of what the reader accepted.
    const TensorFile again = parseSafetensors(serializeSafetensors(file));
    FUZZ_CHECK(again.metadata == file.metadata);
    FUZZ_CHECK(again.tensors.size() == file.tensors.size());
    for (const auto& [name, t] : file.tensors) {
        const auto it = again.tensors.find(name);
        FUZZ_CHECK(it != again.tensors.end());
        FUZZ_CHECK(it->second.dtype == "F32" && it->second.shape == t.shape && sameBits(it->second.values, t.values));
    }
    return 0;
}
