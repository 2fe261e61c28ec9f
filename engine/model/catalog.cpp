#include "model/catalog.h"

#include "io/fileio.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace attnlab {

ModelCatalog scanModelsFolder(const std::string& folder)
{
    namespace fs = std::filesystem;
    ModelCatalog catalog;
    std::error_code ec;
    fs::directory_iterator it(fs::path(folder), fs::directory_options::skip_permission_denied, ec);
    if (ec)
        return catalog; // no such folder (yet), or not readable: no models
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec)
            break;
        // A symbolic link to a model folder counts as the folder (is_directory follows links).
        if (!fs::is_directory(it->path(), ec))
            continue;
        const fs::path config = it->path() / "config.json";
        if (!fs::is_regular_file(config, ec))
            continue; // not a model folder at all
        const std::string name = it->path().filename().string();
        try {
            catalog.models.push_back({name, it->path().string(),
                                      parseHfConfig(readFile(config.string(), kMaxModelConfigBytes), name + "/config.json")});
        } catch (const std::exception& e) {
            catalog.skipped.push_back({name, e.what()});
        }
    }
    const auto byName = [](const auto& a, const auto& b) { return a.name < b.name; };
    std::sort(catalog.models.begin(), catalog.models.end(), byName);
    std::sort(catalog.skipped.begin(), catalog.skipped.end(), byName);
    return catalog;
}

} // namespace attnlab
