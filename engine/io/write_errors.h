#pragma once
/// What io/fileio.cpp and io/output_folders.cpp share (internal to engine/io): the FileErrors of
/// a write that failed, in the user's terms, and the folder a file goes into.

#include "io/fileio.h"

#include <string>

namespace attnlab::detail {

/// The folder a file is written into ("." for a bare file name).
std::string folderOf(const std::string& path);
/// messages::cannotWrite(path, reason, subject, strerror(err)) as a FileError (no system words for err 0).
FileError writeError(const std::string& path, const std::string& reason, const std::string& subject, int err);
/// Why the file or folder `tmp` for `path` could not be made (errno `err`): a missing folder, a
/// file in the way, a read-only file system, no permission, a full disk, the kernel's folder.
FileError creationError(const std::string& path, const std::string& tmp, int err);
/// Why writing or moving into place failed (errno `err`).
FileError writingError(const std::string& path, int err);
/// Flushes a folder's entries (a rename) to the disk; best effort.
void syncFolder(const std::string& folder);

} // namespace attnlab::detail
