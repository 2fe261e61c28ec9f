#include "process_memory.h"

#include <cerrno>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sys/wait.h>
#include <unistd.h>

namespace attnlab::bench {

MemoryStatus memoryStatus()
{
    MemoryStatus s;
    std::ifstream in("/proc/self/status");
    std::string key;
    double kb = 0;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        if (!(fields >> key >> kb))
            continue;
        const double mb = kb / 1024.0;
        if (key == "VmRSS:")
            s.rss = mb;
        else if (key == "VmHWM:")
            s.peak = mb;
        else if (key == "RssAnon:")
            s.anon = mb;
        else if (key == "RssFile:")
            s.file = mb;
    }
    return s;
}

std::string runSelf(const std::vector<std::string>& args)
{
    // Everything the child needs is made before fork: between fork and exec only system calls.
    std::vector<std::string> words{"/proc/self/exe"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    int fds[2];
    if (pipe(fds) != 0)
        throw std::runtime_error("cannot make a pipe for the child process");
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error("cannot start a child process");
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    close(fds[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t got; (got = read(fds[0], buffer, sizeof buffer)) != 0;) {
        if (got > 0)
            output.append(buffer, static_cast<std::size_t>(got));
        else if (errno != EINTR)
            break;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("the measuring child process failed (" + args.front() + " " + args.at(1) + ")");
    return output;
}

std::map<std::string, double> parseFigures(const std::string& output)
{
    std::map<std::string, double> figures;
    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string key;
        double value = 0;
        if (fields >> key >> value)
            figures[key] = value;
    }
    return figures;
}

} // namespace attnlab::bench
