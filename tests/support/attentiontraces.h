#pragma once
// Traces with attention weights in layers for the model view's and the head view's tests: the
// shipped reversal model and seeded Transformers through a Session, and GPT-2 and BERT from the
// tiny Hugging Face folders of tests/reference/hf/ through openModel and run().

#include "model/open.h"
#include "model/run.h"
#include "session/session.h"

#include <QTest>
#include <QWidget>

#include <memory>
#include <string>

namespace attnlab::testing {

/// Switches `s` to the shipped reversal model; false when it did not compute.
inline bool useReversalModel(Session& s)
{
    Config c = s.config();
    c.model = ModelKind::Reversal;
    s.setConfig(c);
    return s.isModel() && s.error().isEmpty();
}

/// Switches `s` to a seeded Transformer (an encoder–decoder unless `encoderOnly`).
inline bool useSeededModel(Session& s, int layers, int heads, bool encoderOnly = false)
{
    Config c = s.config();
    c.model = ModelKind::Seeded;
    c.dModel = 8 * heads;
    c.heads = heads;
    if (encoderOnly)
        c.architecture = Architecture::EncoderStack;
    c.setLayers(layers);
    s.setConfig(c);
    return s.isModel() && s.error().isEmpty();
}

/// The trace of the model folder tests/reference/hf/<folder> on `text`, as the studio runs it.
inline std::shared_ptr<const Trace> folderTrace(const std::string& folder, const std::string& text)
{
    auto model = std::make_shared<const Seq2SeqModel>(openModel(std::string(ATTNLAB_TEST_DATA "/hf/") + folder));
    RunRequest r;
    r.text = text;
    r.model = model;
    adoptModel(r.config, *model);
    r.config.model = ModelKind::File;
    return run(r).trace;
}

/// Shows `w` at width × height and waits until it is on the screen.
inline bool showSized(QWidget& w, int width, int height)
{
    w.resize(width, height);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

} // namespace attnlab::testing
