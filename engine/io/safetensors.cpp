#include "io/safetensors.h"

#include "io/messages.h"

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

/// Bytes per value of a dtype safetensors defines; 0 for an unknown one.
int dtypeSize(const std::string& dtype)
{
    if (dtype == "F64" || dtype == "I64" || dtype == "U64")
        return 8;
    if (dtype == "F32" || dtype == "I32" || dtype == "U32")
        return 4;
    if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16")
        return 2;
    if (dtype == "I8" || dtype == "U8" || dtype == "BOOL")
        return 1;
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

TensorEntry parseEntry(const std::string& name, const nlohmann::json& entry, std::uint64_t dataSize)
{
    const auto fail = [&](const Message& why) { throw FormatError(sayAbout(ioMessage("tensor_entry"), why, printable(name))); };
    if (!entry.is_object())
        fail(say(ioMessage("entry_not_object")));
    TensorEntry t;
    const auto dtype = entry.find("dtype");
    if (dtype == entry.end() || !dtype->is_string())
        fail(say(ioMessage("entry_no_dtype")));
    t.dtype = dtype->get<std::string>();
    const int size = dtypeSize(t.dtype);
    if (size == 0)
        fail(say(ioMessage("entry_unknown_dtype"), t.dtype.substr(0, 20)));

    const auto shape = entry.find("shape");
    if (shape == entry.end() || !shape->is_array())
        fail(say(ioMessage("entry_no_shape")));
    std::uint64_t count = 1;
    // The product of the non-zero sizes is bounded too: a [0, 2^62] tensor holds nothing, but
    // code that multiplies its sizes (3 · d for [3d, d]) must not overflow.
    std::uint64_t nonZero = 1;
    for (const auto& dim : *shape) {
        if (!dim.is_number_integer() || dim.get<std::int64_t>() < 0)
            fail(say(ioMessage("entry_shape_entries")));
        const auto d = dim.get<std::uint64_t>();
        if (d != 0 && nonZero > std::numeric_limits<std::uint64_t>::max() / d / 8)
            fail(say(ioMessage("entry_shape_too_large")));
        nonZero *= d == 0 ? 1 : d;
        count *= d;
        t.shape.push_back(static_cast<std::int64_t>(d));
    }

    const auto offsets = entry.find("data_offsets");
    if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned()
        || !(*offsets)[1].is_number_unsigned())
        fail(say(ioMessage("entry_offsets")));
    t.begin = (*offsets)[0].get<std::uint64_t>();
    t.end = (*offsets)[1].get<std::uint64_t>();
    if (t.begin > t.end || t.end > dataSize)
        fail(say(ioMessage("entry_offsets_outside"), t.begin, t.end, dataSize));
    if (t.end - t.begin != count * static_cast<std::uint64_t>(size))
        fail(say(ioMessage("entry_size"), t.end - t.begin, count * static_cast<std::uint64_t>(size)));
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
            throw FormatError(say(ioMessage("safetensors_header_values"), kMaxHeaderValues));
        if (event == Event::object_start) {
            keys.emplace_back();
        } else if (event == Event::object_end) {
            keys.pop_back();
        } else if (event == Event::key && !keys.back().insert(parsed.get<std::string>()).second) {
            const std::string& key = parsed.get_ref<const std::string&>();
            const bool tensor = depth == 1 && key != "__metadata__";
            throw FormatError(tensor ? say(ioMessage("safetensors_tensor_twice"), printable(key)) : say(ioMessage("safetensors_key_twice"), printable(key)));
        }
        return true;
    };
    try {
        return nlohmann::json::parse(text, onEvent);
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(say(ioMessage("safetensors_header_json"), e.what()));
    }
}

/// Two tensors may not share bytes: writing one would change the other.
void checkNoOverlap(const std::map<std::string, TensorEntry>& tensors)
{
    std::vector<std::pair<const std::string*, const TensorEntry*>> ranges;
    for (const auto& [name, t] : tensors) {
        if (t.begin != t.end) // empty tensors own no bytes
            ranges.emplace_back(&name, &t);
    }
    std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.second->begin < b.second->begin; });
    for (std::size_t i = 1; i < ranges.size(); ++i) {
        const TensorEntry& a = *ranges[i - 1].second;
        const TensorEntry& b = *ranges[i].second;
        if (b.begin < a.end)
            throw FormatError(say(ioMessage("safetensors_overlap"), printable(*ranges[i - 1].first), a.begin, a.end, printable(*ranges[i].first),
                                  b.begin, b.end));
    }
}

} // namespace

std::int64_t shapeProduct(const std::vector<std::int64_t>& shape)
{
    std::int64_t n = 1;
    for (const auto d : shape)
        n *= d;
    return n;
}

std::int64_t Tensor::numel() const
{
    return shapeProduct(shape);
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

SafetensorsLayout parseSafetensorsLayout(std::string_view bytes)
{
    if (bytes.size() < 8)
        throw FormatError(say(ioMessage("safetensors_too_short"), bytes.size()));
    const std::uint64_t headerLen = readLe64(bytes.data());
    if (headerLen == 0 || headerLen > kMaxHeader)
        throw FormatError(say(ioMessage("safetensors_header_length"), headerLen, kMaxHeader));
    if (headerLen > bytes.size() - 8)
        throw FormatError(say(ioMessage("safetensors_truncated_header"), headerLen, bytes.size() - 8));

    const nlohmann::json header = parseHeader(bytes.substr(8, headerLen));
    if (!header.is_object())
        throw FormatError(say(ioMessage("safetensors_header_object")));

    SafetensorsLayout layout;
    layout.dataOffset = 8 + headerLen;
    const std::uint64_t dataSize = bytes.size() - layout.dataOffset;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            if (!entry.is_object())
                throw FormatError(say(ioMessage("safetensors_metadata_object")));
            for (const auto& [k, v] : entry.items()) {
                if (!v.is_string())
                    throw FormatError(say(ioMessage("safetensors_metadata_value"), printable(k)));
                layout.metadata[k] = v.get<std::string>();
            }
            continue;
        }
        layout.tensors.emplace(name, parseEntry(name, entry, dataSize));
    }
    checkNoOverlap(layout.tensors);
    return layout;
}

bool isFloatDtype(const std::string& dtype)
{
    return dtype == "F32" || dtype == "F64" || dtype == "F16" || dtype == "BF16";
}

void convertToFloat(const TensorEntry& t, const char* bytes, float* out)
{
    if (!isFloatDtype(t.dtype))
        throw FormatError(say(ioMessage("dtype_not_float"), t.dtype));
    const std::uint64_t count = (t.end - t.begin) / static_cast<std::uint64_t>(dtypeSize(t.dtype));
    const char* p = bytes + t.begin;
    // One loop per dtype, the dtype compared once: a comparison of strings per value made
    // widening a 135 M-parameter BF16 checkpoint take 1.5 s instead of 0.2 s.
    if (t.dtype == "F32") {
        for (std::uint64_t i = 0; i < count; ++i)
            out[i] = loadLe<float>(p + 4 * i);
    } else if (t.dtype == "F64") {
        for (std::uint64_t i = 0; i < count; ++i)
            out[i] = static_cast<float>(loadLe<double>(p + 8 * i));
    } else if (t.dtype == "F16") {
        for (std::uint64_t i = 0; i < count; ++i)
            out[i] = halfToFloat(loadLe<std::uint16_t>(p + 2 * i));
    } else {
        for (std::uint64_t i = 0; i < count; ++i)
            out[i] = bfloat16ToFloat(loadLe<std::uint16_t>(p + 2 * i));
    }
}

std::int64_t TensorEntry::numel() const
{
    return shapeProduct(shape);
}

TensorFile parseSafetensors(std::string_view bytes)
{
    SafetensorsLayout layout = parseSafetensorsLayout(bytes);
    const char* data = bytes.data() + layout.dataOffset;
    TensorFile file;
    file.metadata = std::move(layout.metadata);
    for (const auto& [name, entry] : layout.tensors) {
        if (!isFloatDtype(entry.dtype))
            throw FormatError(say(ioMessage("dtype_unsupported"), printable(name), entry.dtype));
        Tensor t;
        t.dtype = entry.dtype;
        t.shape = entry.shape;
        t.values.resize(static_cast<std::size_t>(entry.numel()));
        convertToFloat(entry, data, t.values.data());
        file.tensors.emplace(name, std::move(t));
    }
    return file;
}

TensorFile readSafetensors(const std::string& path)
{
    std::string bytes;
    try {
        bytes = readFile(path, 4ULL * 1024 * 1024 * 1024);
    } catch (const std::runtime_error& e) {
        throw FormatError(messageOf(e));
    }
    try {
        return parseSafetensors(bytes);
    } catch (const FormatError& e) {
        throw FormatError(sayAbout(ioMessage("in_file"), e.message(), printable(path)));
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

std::string nonFiniteTensor(const TensorFile& file)
{
    for (const auto& [name, t] : file.tensors) {
        if (!std::all_of(t.values.begin(), t.values.end(), [](float v) { return std::isfinite(v); }))
            return name;
    }
    return {};
}

void writeSafetensors(const std::string& path, const TensorFile& file)
{
    // Checked before anything is written: a diverged model (NaN weights) never replaces a good one.
    if (const std::string bad = nonFiniteTensor(file); !bad.empty())
        throw FileError(messages::cannotWrite(path, "non_finite", bad, ""));
    writeFileAtomically(path, serializeSafetensors(file));
}

} // namespace attnlab
