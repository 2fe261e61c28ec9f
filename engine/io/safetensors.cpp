#include "io/safetensors.h"

#include "io/fileio.h"
#include "text/printable.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

namespace attnlab {

namespace {

constexpr std::uint64_t kMaxHeader = 100ULL * 1024 * 1024;
/// A tensor's entry holds about seven JSON values; a model of 100 000 tensors needs under a
/// million. The limit keeps a 100 MB header of tiny values from taking gigabytes as parsed JSON.
constexpr std::size_t kMaxHeaderValues = 8'000'000;

int dtypeSize(const std::string& dtype)
{
    if (dtype == "F32")
        return 4;
    if (dtype == "F64")
        return 8;
    if (dtype == "F16" || dtype == "BF16")
        return 2;
    return 0;
}

std::uint64_t readLe64(const char* p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}

template <typename T>
T loadLe(const char* p)
{
    // The data section has no alignment guarantee: copy bytes, then fix the byte order.
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) {
        auto* b = reinterpret_cast<unsigned char*>(&v);
        for (std::size_t i = 0; i < sizeof v / 2; ++i)
            std::swap(b[i], b[sizeof v - 1 - i]);
    }
    return v;
}

void appendLe32(std::string& out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

/// Where a tensor's bytes lie in the data section: [begin, end).
struct DataRange {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::string name;
};

Tensor parseEntry(const std::string& name, const nlohmann::json& entry, std::string_view data, DataRange& range)
{
    const auto fail = [&](const std::string& why) { throw FormatError("tensor " + inQuotes(name) + ": " + why); };
    if (!entry.is_object())
        fail("its header entry is not an object");
    Tensor t;
    const auto dtype = entry.find("dtype");
    if (dtype == entry.end() || !dtype->is_string())
        fail("no dtype");
    t.dtype = dtype->get<std::string>();
    const int size = dtypeSize(t.dtype);
    if (size == 0)
        fail("dtype " + t.dtype + " is not supported (use F32, F64, F16 or BF16)");

    const auto shape = entry.find("shape");
    if (shape == entry.end() || !shape->is_array())
        fail("no shape");
    std::uint64_t count = 1;
    // The product of the non-zero sizes is bounded too: a [0, 2^62] tensor holds nothing, but
    // code that multiplies its sizes (3 · d for [3d, d]) must not overflow.
    std::uint64_t nonZero = 1;
    for (const auto& dim : *shape) {
        if (!dim.is_number_integer() || dim.get<std::int64_t>() < 0)
            fail("shape entries must be non-negative integers");
        const auto d = dim.get<std::uint64_t>();
        if (d != 0 && nonZero > std::numeric_limits<std::uint64_t>::max() / d / 8)
            fail("shape is too large");
        nonZero *= d == 0 ? 1 : d;
        count *= d;
        t.shape.push_back(static_cast<std::int64_t>(d));
    }

    const auto offsets = entry.find("data_offsets");
    if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned()
        || !(*offsets)[1].is_number_unsigned())
        fail("data_offsets must be two non-negative integers");
    const auto begin = (*offsets)[0].get<std::uint64_t>();
    const auto end = (*offsets)[1].get<std::uint64_t>();
    if (begin > end || end > data.size())
        fail("data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) + "] lie outside the "
             + std::to_string(data.size()) + " data bytes (truncated file?)");
    if (end - begin != count * static_cast<std::uint64_t>(size))
        fail("holds " + std::to_string(end - begin) + " bytes but its shape and dtype need "
             + std::to_string(count * static_cast<std::uint64_t>(size)));
    range = {begin, end, name};

    t.values.resize(count);
    const char* p = data.data() + begin;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (size == 4)
            t.values[i] = loadLe<float>(p + 4 * i);
        else if (size == 8)
            t.values[i] = static_cast<float>(loadLe<double>(p + 8 * i));
        else if (t.dtype == "F16")
            t.values[i] = halfToFloat(loadLe<std::uint16_t>(p + 2 * i));
        else
            t.values[i] = bfloat16ToFloat(loadLe<std::uint16_t>(p + 2 * i));
    }
    return t;
}

/// The header as JSON. A key given twice is refused: a JSON parser keeps one of them silently,
/// and the file would mean different things to different readers.
nlohmann::json parseHeader(std::string_view text)
{
    using Event = nlohmann::json::parse_event_t;
    std::vector<std::set<std::string>> keys; // of each object being read, innermost last
    std::size_t values = 0;
    const nlohmann::json::parser_callback_t onEvent = [&keys, &values](int depth, Event event, nlohmann::json& parsed) {
        if (event == Event::value && ++values > kMaxHeaderValues)
            throw FormatError("the safetensors header holds more than " + std::to_string(kMaxHeaderValues)
                              + " JSON values (no tensor file needs that many)");
        if (event == Event::object_start) {
            keys.emplace_back();
        } else if (event == Event::object_end) {
            keys.pop_back();
        } else if (event == Event::key && !keys.back().insert(parsed.get<std::string>()).second) {
            const std::string& key = parsed.get_ref<const std::string&>();
            const bool tensor = depth == 1 && key != "__metadata__";
            throw FormatError((tensor ? "the header names tensor " : "the header has the key ") + inQuotes(key) + " twice");
        }
        return true;
    };
    try {
        return nlohmann::json::parse(text, onEvent);
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(std::string("safetensors header is not valid JSON: ") + e.what());
    }
}

/// Two tensors may not share bytes: writing one would change the other.
void checkNoOverlap(std::vector<DataRange> ranges)
{
    std::erase_if(ranges, [](const DataRange& r) { return r.begin == r.end; }); // empty tensors own no bytes
    std::sort(ranges.begin(), ranges.end(), [](const DataRange& a, const DataRange& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < ranges.size(); ++i) {
        const DataRange& a = ranges[i - 1];
        const DataRange& b = ranges[i];
        if (b.begin < a.end)
            throw FormatError("tensors " + inQuotes(a.name) + " [" + std::to_string(a.begin) + ", " + std::to_string(a.end) + ") and "
                              + inQuotes(b.name) + " [" + std::to_string(b.begin) + ", " + std::to_string(b.end)
                              + ") overlap in the data section");
    }
}

} // namespace

std::int64_t Tensor::numel() const
{
    std::int64_t n = 1;
    for (const auto d : shape)
        n *= d;
    return n;
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = (h >> 15) & 1u;
    const std::uint32_t exp = (h >> 10) & 0x1Fu;
    const std::uint32_t mant = h & 0x3FFu;
    float v;
    if (exp == 0)
        v = std::ldexp(static_cast<float>(mant), -24); // zero or subnormal: mant * 2^-24, exact
    else if (exp == 31)
        v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    else
        v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
    return sign ? -v : v;
}

float bfloat16ToFloat(std::uint16_t bits)
{
    // bfloat16 is the top half of a float32.
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

TensorFile parseSafetensors(std::string_view bytes)
{
    if (bytes.size() < 8)
        throw FormatError("not a safetensors file: it has " + std::to_string(bytes.size())
                          + " bytes, fewer than the 8-byte header length");
    const std::uint64_t headerLen = readLe64(bytes.data());
    if (headerLen == 0 || headerLen > kMaxHeader)
        throw FormatError("not a safetensors file: header length " + std::to_string(headerLen)
                          + " is outside 1.." + std::to_string(kMaxHeader));
    if (headerLen > bytes.size() - 8)
        throw FormatError("truncated safetensors file: the header needs " + std::to_string(headerLen)
                          + " bytes but only " + std::to_string(bytes.size() - 8) + " follow");

    const nlohmann::json header = parseHeader(bytes.substr(8, headerLen));
    if (!header.is_object())
        throw FormatError("safetensors header is not a JSON object");

    const std::string_view data = bytes.substr(8 + headerLen);
    TensorFile file;
    std::vector<DataRange> ranges;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            if (!entry.is_object())
                throw FormatError("safetensors __metadata__ is not an object");
            for (const auto& [k, v] : entry.items()) {
                if (!v.is_string())
                    throw FormatError("safetensors __metadata__ value " + inQuotes(k) + " is not a string");
                file.metadata[k] = v.get<std::string>();
            }
            continue;
        }
        file.tensors.emplace(name, parseEntry(name, entry, data, ranges.emplace_back()));
    }
    checkNoOverlap(std::move(ranges));
    return file;
}

TensorFile readSafetensors(const std::string& path)
{
    std::string bytes;
    try {
        bytes = readFile(path, 4ULL * 1024 * 1024 * 1024);
    } catch (const std::runtime_error& e) {
        throw FormatError(e.what());
    }
    try {
        return parseSafetensors(bytes);
    } catch (const FormatError& e) {
        throw FormatError(inQuotes(path) + ": " + e.what());
    }
}

std::string serializeSafetensors(const TensorFile& file)
{
    nlohmann::json header = nlohmann::json::object();
    std::uint64_t offset = 0;
    for (const auto& [name, t] : file.tensors) { // std::map: sorted keys
        const std::uint64_t bytes = 4ULL * t.values.size();
        header[name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    if (!file.metadata.empty())
        header["__metadata__"] = file.metadata;
    std::string json = header.dump();
    json.append((8 - json.size() % 8) % 8, ' '); // keeps the data 8-byte aligned

    std::string out;
    out.reserve(8 + json.size() + offset);
    const std::uint64_t len = json.size();
    appendLe32(out, static_cast<std::uint32_t>(len & 0xFFFFFFFFu));
    appendLe32(out, static_cast<std::uint32_t>(len >> 32));
    out += json;
    for (const auto& [name, t] : file.tensors) {
        for (const float v : t.values)
            appendLe32(out, std::bit_cast<std::uint32_t>(v));
    }
    return out;
}

} // namespace attnlab
