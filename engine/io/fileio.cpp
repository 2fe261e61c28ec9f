#include "io/fileio.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace attnlab {

std::string readFile(const std::string& path, std::uint64_t maxBytes)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::runtime_error("cannot read '" + path + "': it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::uint64_t>(in.tellg());
    if (size > maxBytes)
        throw std::runtime_error("'" + path + "' is too large (" + std::to_string(size) + " bytes; the limit is "
                                 + std::to_string(maxBytes) + ")");
    in.seekg(0);
    std::string bytes(size, '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(size)))
        throw std::runtime_error("cannot read '" + path + "'");
    return bytes;
}

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw std::runtime_error("cannot write '" + path + "': it is a directory");
    const std::string tmp = path + ".part";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            const std::string why = std::strerror(errno);
            out.close();
            fs::remove(tmp, ec);
            throw std::runtime_error("cannot write '" + path + "': " + why + " (is the disk full?)");
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw std::runtime_error("cannot write '" + path + "': " + ec.message());
    }
}

} // namespace attnlab
