#pragma once
// Every view of the studio in one table: which kind it is and how to make it (which view draws a
// stage is the stage catalogue's, session/stagecatalogue.h). The view stack, the slide decks and
// the lesson player all take their views from here, so a new view is one file plus one line in
// registry.cpp.

#include "session/stages.h"

#include <QString>

#include <vector>

class QWidget;

namespace attnlab {

class Session;
class SessionView;

struct ViewEntry {
    ViewKind kind;
    /// The lesson's `view:` value that asks for this view ("kernel-regression"); empty for none.
    QString lessonView;
    /// Makes the view, set up for its kind (the concatenation's mode, …).
    SessionView* (*make)(Session* session, QWidget* parent);
    /// Readies a view made for a slide (finishes work it does in the background); may be null.
    void (*prepareForSlide)(SessionView* view) = nullptr;
    /// The title of the view's own tab beside the "Stage" tab (untranslated, in the context
    /// "attnlab::ViewStack"), for a view the user picks whatever the step: every head, the model
    /// view, the head view. Null for a page of the "Stage" tab, which shows the step's own view.
    const char* tab = nullptr;
    /// Claims a step by what the trace holds (before the stage catalogue's view; may be null): the
    /// weights step of an attention kind other than full is the approximation view's.
    bool (*claims)(const QString& stageId, const Trace& trace) = nullptr;
};

/// Every view, in the order the view stack holds them.
const std::vector<ViewEntry>& viewRegistry();
/// The entry of `kind` (every ViewKind has one).
const ViewEntry& viewEntry(ViewKind kind);

} // namespace attnlab
