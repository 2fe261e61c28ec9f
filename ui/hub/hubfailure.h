#pragma once
// Why a download from the Hugging Face Hub did not end with a model folder: a kind (which the
// command line turns into its exit code) and one sentence in the interface's language.

#include <QString>

namespace attnlab {

struct HubFailure {
    enum class Kind {
        None,
        BadRequest,     ///< not a repository name, a bad revision or endpoint
        NotFound,       ///< 404: no such model, revision or file
        Gated,          ///< 401/403: a gated or private model, no token or a refused one
        Unsupported,    ///< a model Attention Lab cannot open (refused before downloading)
        NoNetwork,      ///< the connection was refused, no route, no network
        HostNotFound,   ///< the endpoint's name was not resolved
        Timeout,        ///< the server did not answer for a while
        ConnectionLost, ///< the connection dropped during a file (retried, then given up)
        ServerError,    ///< another HTTP error, an answer that is not the hub's
        Insecure,       ///< a redirect from HTTPS down to HTTP, or a TLS failure
        Checksum,       ///< a file twice not what the hub announced
        DiskFull,       ///< not enough room, before starting or while writing
        WriteFailed,    ///< the folder cannot be made or written, a folder in the way
        Busy,           ///< the same model is being downloaded by another window or command
        Cancelled,      ///< stopped by the user (what was fetched stays, for a resume)
    };
    Kind kind = Kind::None;
    QString message;

    explicit operator bool() const { return kind != Kind::None; }

    /// attention-lab-cli's exit code: 2 when the request itself cannot be met (a bad name, no such
    /// model or revision, a gated model without an accepted token, a model Attention Lab cannot
    /// open), 1 when the model could not be fetched or written (network, server, checksum, disk).
    int exitCode() const
    {
        switch (kind) {
        case Kind::None:
            return 0;
        case Kind::BadRequest:
        case Kind::NotFound:
        case Kind::Gated:
        case Kind::Unsupported:
            return 2;
        default:
            return 1;
        }
    }
};

} // namespace attnlab
