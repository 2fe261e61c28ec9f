#pragma once
// Running part of a test in a child process, for what must not touch the test itself: a mount
// namespace with a tiny or read-only tmpfs (a real full disk, even as root), or a lower user.

#include <QString>

#include <cstdio>
#include <functional>
#include <string>

#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

namespace attnlab::testing {

constexpr int kCannotSetUp = 77; ///< a child's exit code: the failure could not be arranged here

struct ChildResult {
    int exitCode = -1; ///< -1 when the child did not exit normally
    QString text;      ///< what it wrote with `say`
};

/// Runs `work` in a child process and returns its exit code and what it wrote with `say`.
inline ChildResult inChild(const std::function<int(const std::function<void(const std::string&)>& say)>& work)
{
    int pipeFds[2];
    if (::pipe(pipeFds) != 0)
        return {-1, QStringLiteral("pipe failed")};
    std::fflush(nullptr); // what this process printed is not printed again by the child
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        const auto say = [&](const std::string& text) { (void)!::write(pipeFds[1], text.data(), text.size()); };
        const int code = work(say);
        ::_exit(code);
    }
    ::close(pipeFds[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(pipeFds[0], buf, sizeof buf)) > 0)
        text.append(buf, static_cast<std::size_t>(n));
    ::close(pipeFds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, QString::fromStdString(text)};
}

/// In a child: a private mount namespace (with a user namespace when not privileged), and a
/// tmpfs with `options` mounted on `dir`. False when the system does not allow it.
inline bool mountTmpfs(const std::string& dir, unsigned long flags, const char* options)
{
    if (::unshare(CLONE_NEWNS) != 0 && ::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return false;
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return false;
    return ::mount("tmpfs", dir.c_str(), "tmpfs", flags, options) == 0;
}

/// In a child running as root: a private /dev of its own (a tmpfs holding new null and full
/// devices), so that a test that writes /dev/null cannot damage the machine's if the code under
/// test is wrong (as root a rename over /dev/null succeeds). False when it cannot be arranged:
/// then a test running as root must not write to /dev at all. An ordinary user cannot replace
/// /dev/null and needs none: true without changing anything.
inline bool privateDev()
{
    if (::geteuid() != 0)
        return true;
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0
        || ::mount("tmpfs", "/dev", "tmpfs", 0, "mode=755") != 0)
        return false;
    const bool made = ::mknod("/dev/null", S_IFCHR, makedev(1, 3)) == 0 && ::mknod("/dev/full", S_IFCHR, makedev(1, 7)) == 0;
    return made && ::chmod("/dev/null", 0666) == 0 && ::chmod("/dev/full", 0666) == 0;
}

/// In a child running as root: becomes "nobody" (65534). False when it cannot.
inline bool becomeNobody()
{
    if (::geteuid() != 0)
        return true; // already an ordinary user
    return ::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0;
}

/// The id of a process that has ended (a child forked, exited and waited for): free until the
/// system reuses it, so a folder named after it belongs to no running process. -1 if fork failed.
inline pid_t endedProcessId()
{
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(0);
    if (pid < 0 || ::waitpid(pid, nullptr, 0) != pid)
        return -1;
    return pid;
}

} // namespace attnlab::testing
