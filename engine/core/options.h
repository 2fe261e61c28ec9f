#pragma once
/// The settings of the attention kinds and of the position schemes acting inside attention,
/// declared once (docs/attention-kinds.md, docs/position-schemes.md). Each line of the table says
/// the option's name in config JSON, lesson settings and messages ("max_distance"), its flag and
/// help on the command line ("--max-distance K"), the ModelSpec member it sets, the kinds or the
/// scheme that read it and its valid range. Config JSON (io/config_json.cpp), lesson settings
/// (lesson/settings.cpp), the command line's flags and help (app/cli) and ModelSpec::problems()
/// all read this table: adding an option is one line here (and its member in model_spec.h).

#include "core/model_spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace attnlab {

/// The member an option sets: an int or a list of positions of AttentionOptions, an int or a
/// number of PositionOptions.
using OptionMember = std::variant<int AttentionOptions::*, std::vector<int> AttentionOptions::*, int PositionOptions::*,
                                  double PositionOptions::*>;

struct OptionInfo {
    std::string_view key;     ///< config JSON, lesson settings and messages: "max_distance"
    std::string_view flag;    ///< the command line: "--max-distance"
    std::string_view metavar; ///< the value in the command line's help: "K"
    OptionMember member;
    std::vector<AttentionKind> kinds = {};                   ///< the attention kinds that read it (in the kinds' order)
    std::optional<PositionalEncoding> scheme = std::nullopt; ///< or the position scheme that reads it
    double min = 0;           ///< the valid values: min … max (of each position, for a list)
    double max = 0;
    bool minExcluded = false; ///< greater than min (rope's base)
    bool even = false;        ///< an even number (lsh's buckets)
    /// Said after "key (v) must be between min and max" when a value is out of range.
    std::string_view rule = {};
    /// The whole sentence instead, with {v}, {min} and {max} in it, when it is not that one.
    std::string_view sentence = {};
    /// Not empty: a value below 0 means "as the option of this key" (xl's memory: −1 = L). Files,
    /// lessons and the command line leave the option out for that instead of writing −1; a file
    /// is written the value in use.
    std::string_view negativeMeans = {};
    /// The command line's help after the metavar, one line per '\n'.
    std::string_view help = {};
};

/// Every option, attention kinds' first then position schemes', in the order lessons list them
/// and validation checks them.
const std::vector<OptionInfo>& options();
/// The option of this key or flag; null for none.
const OptionInfo* optionByKey(std::string_view key);
const OptionInfo* optionByFlag(std::string_view flag);

/// An attention kind's option (else a position scheme's).
inline bool isKindOption(const OptionInfo& o)
{
    return !o.kinds.empty();
}
/// Whether `spec` reads the option: its kind or its scheme is the one in use.
bool readsOption(const ModelSpec& spec, const OptionInfo& o);

/// Calls f with the option's member in `spec` (int&, std::vector<int>&, double&; const when spec is).
template <typename Spec, typename F>
decltype(auto) visitOption(const OptionInfo& o, Spec& spec, F&& f)
{
    return std::visit(
        [&](auto member) -> decltype(auto) {
            if constexpr (requires { spec.attentionOptions.*member; })
                return f(spec.attentionOptions.*member);
            else
                return f(spec.positionOptions.*member);
        },
        o.member);
}

/// The value a file writes: the member's, or for a negative value with negativeMeans that option's.
int writtenValue(const ModelSpec& spec, const OptionInfo& o, int value);

/// The problem of the option's value in `spec` (every position's, for a list), appended to `out`.
void optionProblems(const ModelSpec& spec, const OptionInfo& o, std::vector<std::string>& out);

/// The command line's help lines of the options for which `pick` is true, as in help.cpp: the
/// flag and metavar in a column of 23 after two spaces, then the help.
std::string optionsHelp(bool (*pick)(const OptionInfo&));

} // namespace attnlab
