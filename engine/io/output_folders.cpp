// Folders of outputs (io/fileio.h): a StagedFolder written hidden and moved into place at the
// end, with the hidden folders of processes that have ended removed; checkFolderWritable; and a
// MadeFolder that goes again when it stays empty.

#include "io/fileio.h"
#include "io/write_errors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>

namespace attnlab {

namespace fs = std::filesystem;
using namespace detail;

namespace {

/// The start of the names of a StagedFolder's hidden folders for `target`: ".NAME.part-", then
/// the process id.
std::string stagingPrefix(const fs::path& target)
{
    std::string prefix = "."; // appended piece by piece: GCC 12 warns wrongly about "." + string (-Wrestrict)
    prefix += target.filename().string();
    prefix += ".part-";
    return prefix;
}

/// "out/" names the folder "out".
fs::path folderPath(const std::string& path)
{
    fs::path target(path);
    if (target.filename().empty())
        target = target.parent_path();
    return target;
}


} // namespace

void checkFolderWritable(const std::string& path)
{
    const fs::path target = folderPath(path);
    std::error_code ec;
    if (fs::exists(target, ec)) {
        if (!fs::is_directory(target, ec))
            throw writeError(path, "not_a_folder", path, ENOTDIR);
        if (::faccessat(AT_FDCWD, target.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
            throw errno == EROFS ? writeError(path, "read_only", target.string(), errno)
                                 : writeError(path, "no_permission", target.string(), errno);
    }
    // The hidden folder goes beside the target: try making one there.
    std::string probe = (target.parent_path() / ".attention-lab-XXXXXX").string();
    if (::mkdtemp(probe.data()) == nullptr)
        throw creationError(target.string(), probe, errno);
    ::rmdir(probe.c_str());
}

int StagedFolder::removeStale(const std::string& path)
{
    const fs::path target = folderPath(path);
    const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    const std::string prefix = stagingPrefix(target);
    int removed = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(prefix) || !entry.is_directory(ec))
            continue;
        const std::string digits = name.substr(prefix.size());
        if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        const long pid = std::stol(digits);
        // Ours (an earlier run with this process id), or a process that no longer exists (ESRCH);
        // EPERM means it runs as another user: kept, as is every folder of a live process.
        const bool stale = pid == ::getpid() || (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
        if (stale && fs::remove_all(entry.path(), ec) != static_cast<std::uintmax_t>(-1) && !ec)
            ++removed;
    }
    return removed;
}

StagedFolder::StagedFolder(std::string path)
    : m_path(std::move(path))
{
    const fs::path target = folderPath(m_path);
    std::error_code ec;
    if (fs::exists(target, ec) && !fs::is_directory(target, ec))
        throw writeError(m_path, "not_a_folder", m_path, ENOTDIR);
    removeStale(m_path); // a killed run's hidden folder, and a leftover of this process id
    const fs::path staging = target.parent_path() / (stagingPrefix(target) + std::to_string(::getpid()));
    if (!fs::create_directory(staging, ec))
        throw creationError(target.string(), staging.string(), ec.value());
    m_staging = staging.string();
}

StagedFolder::~StagedFolder()
{
    std::error_code ec;
    if (!m_staging.empty())
        fs::remove_all(m_staging, ec);
}

void StagedFolder::commit()
{
    std::error_code ec;
    const fs::path target(m_path);
    if (!fs::exists(target, ec)) {
        // A new folder appears whole, by one rename.
        if (::rename(m_staging.c_str(), m_path.c_str()) == 0) {
            m_staging.clear();
            syncFolder(folderOf(fs::path(m_path).lexically_normal().string()));
            return;
        }
        fs::create_directories(target, ec);
    }
    for (const auto& entry : fs::directory_iterator(m_staging, ec)) {
        const fs::path to = target / entry.path().filename();
        if (::rename(entry.path().c_str(), to.c_str()) != 0)
            throw writingError(to.string(), errno);
    }
    if (ec)
        throw writingError(m_staging, ec.value());
    syncFolder(m_path);
}

MadeFolder::MadeFolder(const std::string& path)
{
    const fs::path target = folderPath(path);
    std::error_code ec;
    // The folders to make, the deepest first: up to the nearest one that exists.
    std::vector<fs::path> missing;
    for (fs::path p = target; !p.empty() && !fs::exists(fs::symlink_status(p, ec)); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    if (missing.empty()) {
        if (!fs::is_directory(target, ec))
            throw writeError(path, "not_a_folder", path, ENOTDIR);
        return;
    }
    for (auto p = missing.rbegin(); p != missing.rend(); ++p) {
        if (::mkdir(p->c_str(), 0777) != 0 && errno != EEXIST) {
            const int err = errno;
            removeMade();
            // Why this folder cannot be made in the one above it (a file there, no permission).
            throw creationError(p->string(), p->string(), err);
        }
        m_made.push_back(p->string());
    }
}

void MadeFolder::removeMade()
{
    // The deepest first; rmdir leaves a folder that holds anything.
    for (auto p = m_made.rbegin(); p != m_made.rend(); ++p)
        ::rmdir(p->c_str());
    m_made.clear();
}

MadeFolder::~MadeFolder()
{
    removeMade();
}

} // namespace attnlab
