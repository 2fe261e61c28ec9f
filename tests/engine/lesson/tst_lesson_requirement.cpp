// Lessons that need a pretrained model (docs/lesson-format.md, "Lessons that need a model"): the
// header's `requires:`, `model=pretrained`, what the model's family allows (its block, its
// stages, a known model's layers and heads), the views of a whole model, what the steps ask of
// the model, and finding the folder in a catalogue of the Models folder.
#include "lesson/lesson.h"

#include <QtTest>

#include <string>

using namespace attnlab;

namespace {

/// The header every inline lesson starts with, asking for GPT-2 small (5 lines, blank line 6).
const std::string kGpt2 = "---\ntitle: T\nlanguage: en\nrequires: gpt2\n---\n\n";
const std::string kBert = "---\ntitle: T\nlanguage: en\nrequires: bert-base-uncased\n---\n\n";

QString failureOf(const std::string& text)
{
    try {
        parseLesson(text, "t.md");
    } catch (const LessonError& e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(no error)");
}

ModelFolderInfo folder(const std::string& name, PretrainedFamily family, int layers, int heads, int dModel)
{
    ModelFolderInfo f;
    f.name = name;
    f.path = "/models/" + name;
    f.config.family = family;
    f.config.layers = layers;
    f.config.heads = heads;
    f.config.dModel = dModel;
    return f;
}

} // namespace

class TestLessonRequirement : public QObject {
    Q_OBJECT
private slots:
    void requirementValues_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("family"); // PretrainedFamily: 0 GPT-2, 1 BERT, 2 Llama, 3 Mistral, 4 Qwen2, 5 Qwen3
        QTest::addColumn<QString>("hub");
        QTest::addColumn<int>("layers"); // 0: none
        QTest::addColumn<int>("heads");
        // Sizes from the models' config.json on the hub (not from Attention Lab).
        QTest::newRow("gpt2") << "gpt2" << "gpt2" << 0 << "openai-community/gpt2" << 12 << 12;
        QTest::newRow("gpt2-medium") << "gpt2-medium" << "gpt2-medium" << 0 << "openai-community/gpt2-medium" << 24 << 16;
        QTest::newRow("distilgpt2") << "distilgpt2" << "distilgpt2" << 0 << "distilbert/distilgpt2" << 6 << 12;
        QTest::newRow("bert-base-uncased") << "bert-base-uncased" << "bert-base-uncased" << 1 << "google-bert/bert-base-uncased" << 12 << 12;
        QTest::newRow("bert-large-cased") << " bert-large-cased " << "bert-large-cased" << 1 << "google-bert/bert-large-cased" << 24 << 16;
        QTest::newRow("bert-base-chinese") << "bert-base-chinese" << "bert-base-chinese" << 1 << "google-bert/bert-base-chinese" << 12 << 12;
        QTest::newRow("SmolLM2-135M") << "SmolLM2-135M" << "SmolLM2-135M" << 2 << "HuggingFaceTB/SmolLM2-135M" << 30 << 9;
        QTest::newRow("Qwen2.5-0.5B") << "Qwen2.5-0.5B" << "Qwen2.5-0.5B" << 4 << "Qwen/Qwen2.5-0.5B" << 24 << 14;
        QTest::newRow("known, type restated") << "gpt2, type=gpt2" << "gpt2" << 0 << "openai-community/gpt2" << 12 << 12;
        QTest::newRow("own bert") << "my_bert.v2, type=bert" << "my_bert.v2" << 1 << "" << 0 << 0;
        QTest::newRow("own gpt2, spaces") << "tiny-gpt2 ,  type = gpt2" << "tiny-gpt2" << 0 << "" << 0 << 0;
    }

    void requirementValues()
    {
        QFETCH(QString, value);
        QFETCH(QString, name);
        QFETCH(int, family);
        QFETCH(QString, hub);
        QFETCH(int, layers);
        QFETCH(int, heads);
        const ModelRequirement r = parseRequirement(value.toStdString());
        QCOMPARE(QString::fromStdString(r.name), name);
        QCOMPARE(static_cast<int>(r.family), family);
        QCOMPARE(QString::fromStdString(r.hubId), hub);
        QCOMPARE(r.layers.value_or(0), layers);
        QCOMPARE(r.heads.value_or(0), heads);
    }

    void badRequirements_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << "gpt3" << "requires: 'gpt3' is not a model Attention Lab knows: did you mean 'gpt2'?";
        QTest::newRow("unknown, says how") << "my-model" << "for a folder of your own give its family: 'requires: my-model, type=gpt2'";
        QTest::newRow("a path") << "models/gpt2" << "requires: 'models/gpt2' is not a folder name";
        QTest::newRow("hidden") << ".gpt2" << "is not a folder name";
        QTest::newRow("spaces inside") << "my model, type=bert" << "is not a folder name";
        QTest::newRow("no name") << ", type=bert" << "requires: name the model folder";
        QTest::newRow("bad type") << "x, type=t5" << "requires: unknown type 't5' (expected one of gpt2, bert, llama, mistral, qwen2, qwen3, gemma3_text)";
        QTest::newRow("other key") << "x, layers=12" << "requires: after the folder name only 'type=gpt2' or 'type=bert' or 'type=llama' or 'type=mistral' or 'type=qwen2' or "
                                                     "'type=qwen3' or 'type=gemma3_text' may follow";
        QTest::newRow("known, other family") << "gpt2, type=bert" << "requires: gpt2 is a GPT-2 model, not type=bert";
    }

    void badRequirements()
    {
        QFETCH(QString, value);
        QFETCH(QString, message);
        try {
            parseRequirement(value.toStdString());
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    void headerStartsOnThePretrainedModel()
    {
        // `requires` before or after `settings`: the header's settings apply on top of model=pretrained.
        for (const std::string header : {"---\ntitle: T\nlanguage: en\nsettings: seed=3\nrequires: gpt2\n---\n\n",
                                         "---\ntitle: T\nlanguage: en\nrequires: gpt2\nsettings: seed=3\n---\n\n"}) {
            const Lesson l = parseLesson(header + "## A\nstage: weights\n", "t.md");
            QVERIFY(l.requirement && l.requirement->name == "gpt2");
            QVERIFY(l.config.model == ModelKind::File);
            QCOMPARE(l.config.seed, std::uint64_t(3));
            QVERIFY(l.steps[0].needsModel());
            QVERIFY(l.steps[0].block == Block::DecoderSelf); // GPT-2's layers, chosen for the lesson
        }
        // The header may start without the model; a step brings it.
        const Lesson l = parseLesson("---\ntitle: T\nlanguage: en\nrequires: bert-base-uncased\nsettings: model=none, d_model=8, heads=2\n"
                                     "---\n\n## Plain\nstage: weights\n\n## BERT\nsettings: model=pretrained\nstage: segment_embedding\n",
                                     "t.md");
        QVERIFY(l.config.model == ModelKind::None);
        QVERIFY(!l.steps[0].needsModel());
        QVERIFY(l.steps[1].needsModel());
        QVERIFY(l.steps[1].block == Block::EncoderSelf);
        QCOMPARE(QString::fromStdString(l.steps[1].stage), QStringLiteral("segment_embedding"));
    }

    void familyStepsAndWhatTheyUse()
    {
        const Lesson g = parseLesson(kGpt2 + "## A\nstage: tokens\n\n## B\nstage: weights\nlayer: 12\nhead: 3\n\n"
                                             "## C\nsettings: model=none, d_model=8, heads=2\nstage: mask\nhead: 1\n\n"
                                             "## D\nsettings: model=pretrained\nstage: decoder_output\n\n"
                                             "## E\nstage: weights\nview: model\n\n## F\nview: head-view\nlayer: 2\n",
                                     "t.md");
        QCOMPARE(g.steps.size(), std::size_t(6));
        QVERIFY(g.steps[1].block == Block::DecoderSelf);
        QCOMPARE(g.steps[1].layer, 11);
        QVERIFY(!g.steps[2].needsModel());
        QCOMPARE(g.steps[2].layer, 0); // model=none forgets the layer
        QCOMPARE(g.steps[3].layer, 0);
        QVERIFY(g.steps[3].block == Block::DecoderSelf);
        QCOMPARE(QString::fromStdString(g.steps[4].view), QStringLiteral("model"));
        QCOMPARE(QString::fromStdString(g.steps[5].view), QStringLiteral("head-view"));
        // Only the steps that run the model count: layer 12 and head 3 (step B); step C's head 1 not.
        QCOMPARE(g.modelUse.layers, 12);
        QCOMPARE(g.modelUse.heads, 3);
        QVERIFY(!g.modelUse.outputHead);
        QVERIFY(parseLesson(kBert + "## A\nstage: probabilities\n", "t.md").modelUse.outputHead);
        QVERIFY(parseLesson(kBert + "## A\nstage: mlm_transform\n", "t.md").modelUse.outputHead);
        QCOMPARE(parseLesson(kBert + "## A\nstage: input\n", "t.md").modelUse, (ModelUse{1, 1, false}));
    }

    void pretrainedErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString g = QString::fromStdString(kGpt2);
        const QString b = QString::fromStdString(kBert);
        const QString plain = QStringLiteral("---\ntitle: T\nlanguage: en\n---\n\n");
        QTest::newRow("no requires") << plain + "## A\nsettings: model=pretrained\n"
                                     << "t.md:7: settings: model=pretrained needs the model folder named in the header";
        QTest::newRow("model=file") << plain + "## A\nsettings: model=file\n" << "t.md:7: settings: model=file cannot be used in a lesson";
        QTest::newRow("bad requires") << "---\ntitle: T\nlanguage: en\nrequires: bert-base-uncase\n---\n\n## A\n"
                                      << "t.md:4: requires: 'bert-base-uncase' is not a model Attention Lab knows: did you mean "
                                         "'bert-base-uncased'?";
        QTest::newRow("requires twice") << "---\ntitle: T\nlanguage: en\nrequires: gpt2\nrequires: gpt2\n---\n\n## A\n"
                                        << "t.md:5: 'requires' is given twice in the header (first on line 4)";
        QTest::newRow("d_model named") << g + "## A\nsettings: d_model=768\n"
                                       << "t.md:8: settings: model=pretrained takes d_model and heads from the model folder";
        QTest::newRow("heads in the header") << "---\ntitle: T\nlanguage: en\nrequires: gpt2\nsettings: heads=12\n---\n\n## A\n"
                                             << "t.md:5: settings: model=pretrained takes d_model and heads";
        QTest::newRow("gpt2 has no encoder block") << g + "## A\nblock: encoder_self\n"
                                                   << "t.md:8: block 'encoder_self' does not exist in gpt2 (GPT-2): its layers are decoder_self";
        QTest::newRow("bert has no decoder block") << b + "## A\nstage: q\nblock: decoder_self\n"
                                                   << "t.md:9: block 'decoder_self' does not exist in bert-base-uncased (BERT)";
        QTest::newRow("cross") << b + "## A\nblock: cross\n" << "t.md:8: block 'cross' does not exist";
        QTest::newRow("gpt2 has no encoder_output") << g + "## A\nstage: encoder_output\n"
                                                    << "t.md:8: stage 'encoder_output' does not exist in GPT-2, a decoder-only model";
        QTest::newRow("bert has no decoder_output") << b + "## A\nstage: decoder_output\n"
                                                    << "t.md:8: stage 'decoder_output' does not exist in BERT, an encoder-only model";
        QTest::newRow("no cross_norm") << g + "## A\nstage: cross_norm\n" << "t.md:8: stage 'cross_norm' does not exist in GPT-2";
        QTest::newRow("BERT stage in a GPT-2 lesson") << g + "## A\nstage: segment_embedding\n"
                                                      << "t.md:8: stage 'segment_embedding' exists only in BERT";
        QTest::newRow("BERT stage without requires") << plain + "## A\nstage: mlm_transform\n"
                                                     << "t.md:7: stage 'mlm_transform' exists only in BERT";
        QTest::newRow("BERT stage with a seeded model") << b + "## A\nstage: embedding_sum\n\n## B\nsettings: model=seeded\n"
                                                        << "t.md:11: stage 'embedding_sum' exists only in BERT";
        QTest::newRow("BERT stage without a model") << b + "## A\nstage: embedding_sum\n\n## B\nsettings: model=none\n"
                                                    << "t.md:11: stage 'embedding_sum' (chosen on line 8) needs an encoder–decoder model";
        QTest::newRow("layer beyond gpt2") << g + "## A\nlayer: 13\n" << "t.md:8: layer 13 does not exist: gpt2 (GPT-2) has 12 layers";
        QTest::newRow("head beyond gpt2") << g + "## A\nhead: 13\n" << "t.md:8: head 13 does not exist: there are 12 heads";
        QTest::newRow("a seeded model's layer carried into GPT-2 fits")
            << g + "## A\nsettings: model=seeded, layers=12, d_model=8, heads=2\nlayer: 12\nblock: decoder_self\n\n"
                   "## B\nsettings: model=pretrained, layers=2\nstage: weights\n"
            << "no error";
        QTest::newRow("own model: up to 24 layers") << "---\ntitle: T\nlanguage: en\nrequires: mine, type=gpt2\n---\n\n## A\nlayer: 24\n"
                                                    << "no error";
        QTest::newRow("own model: not 25") << "---\ntitle: T\nlanguage: en\nrequires: mine, type=gpt2\n---\n\n## A\nlayer: 25\n"
                                                    << "t.md:8: layer: '25' is not a layer (1 … 24, counting from 1)";
        QTest::newRow("own model: up to 16 heads") << "---\ntitle: T\nlanguage: en\nrequires: mine, type=bert\n---\n\n## A\nhead: 17\n"
                                                   << "t.md:8: head 17 does not exist: there are 16 heads";
        // A gated decoder rotates its queries and keys itself: its lesson shows them without pe=rope
        // (lesson 26); GPT-2 computes none, so there the step still asks for the scheme.
        QTest::newRow("SmolLM2 rotates q and k itself")
            << "---\ntitle: T\nlanguage: en\nrequires: SmolLM2-135M\n---\n\n## A\nstage: q_rotated\n\n## B\nstage: k_rotated\n"
            << "no error";
        QTest::newRow("GPT-2 does not rotate") << g + "## A\nstage: q_rotated\n"
                                               << "t.md:8: stage 'q_rotated' is computed with pe=rope only";
        // A modern decoder's gate, up and extra norms: only in a family that computes them.
        const QString smol = "---\ntitle: T\nlanguage: en\nrequires: SmolLM2-135M\n---\n\n";
        QTest::newRow("SmolLM2's gate and up") << smol + "## A\nstage: ffn_gate\n\n## B\nstage: ffn_up\n" << "no error";
        QTest::newRow("Qwen3's q_norm") << "---\ntitle: T\nlanguage: en\nrequires: Qwen3-0.6B\n---\n\n## A\nstage: q_norm\nhead: 16\n"
                                        << "no error";
        QTest::newRow("SmolLM2 has no q_norm")
            << smol + "## A\nstage: q_norm\n"
            << "t.md:8: stage 'q_norm' exists only in Qwen3 and Gemma 3, not in Llama: the lesson needs such a model ('requires: Qwen3-0.6B')";
        QTest::newRow("GPT-2 has no gate") << g + "## A\nstage: ffn_gate\n"
                                           << "t.md:8: stage 'ffn_gate' exists only in Llama, Mistral, Qwen2, Qwen3 and Gemma 3, not in GPT-2";
        QTest::newRow("Gemma's post-norm") << smol + "## A\nstage: attn_post_norm\n"
                                           << "t.md:8: stage 'attn_post_norm' exists only in Gemma 3, not in Llama: the lesson needs such "
                                              "a model ('requires: FOLDER, type=gemma3_text')";
        QTest::newRow("gate without requires") << plain + "## A\nstage: ffn_up\n" << "t.md:7: stage 'ffn_up' exists only in Llama";
        QTest::newRow("gate with a seeded model") << smol + "## A\nstage: ffn_gate\n\n## B\nsettings: model=seeded\n"
                                                  << "t.md:11: stage 'ffn_gate' exists only in the modern decoders";
        QTest::newRow("target") << g + "## A\ntarget: hello\n" << "t.md:8: target: a pretrained model reads the sentence only";
        QTest::newRow("generate") << g + "## A\ngenerate: 2\n" << "t.md:8: generate: a pretrained model reads the sentence only";
        QTest::newRow("carried stage, new model") << g + "## A\nsettings: model=none, d_model=8, heads=2\nstage: q\n\n"
                                                         "## B\nsettings: model=seeded\nstage: encoder_output\n\n## C\nsettings: model=pretrained\n"
                                                  << "t.md:16: stage 'encoder_output' does not exist in GPT-2, a decoder-only model: its "
                                                     "last stack output is 'decoder_output' (chosen on line 13)";
        QTest::newRow("unknown view") << g + "## A\nview: grid\n" << "t.md:8: unknown view 'grid' (expected one of stage, heads, "
                                                                     "kernel-regression, softmax-scaling, cost, positions, length, training), or for a whole model 'model' or 'head-view'";
        QTest::newRow("unknown header key") << "---\ntitle: T\nlanguage: en\nneeds: gpt2\n---\n\n## A\n"
                                            << "t.md:4: unknown header key 'needs' (expected one of title, language, summary, settings, "
                                               "sentence, order), or 'requires' for a lesson that needs a pretrained model";
    }

    void pretrainedErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString got = failureOf(text.toStdString());
        QVERIFY2(got.startsWith(message) || (message == u"no error" && got == u"(no error)"), qPrintable(got));
    }

    void findingTheFolder()
    {
        const ModelRequirement gpt2 = parseRequirement("gpt2");
        const ModelUse small{2, 4, true};
        ModelCatalog c;
        // Absent: nothing found, nothing to say about a folder.
        RequirementMatch m = findRequiredModel(c, gpt2, small);
        QVERIFY(!m.folder && !m.unusable && m.problem.empty());

        // The required name wins, whatever its sizes, when it has the layers and heads the steps use.
        c.models = {folder("GPT2-saved", PretrainedFamily::Gpt2, 12, 12, 768), folder("gpt2", PretrainedFamily::Gpt2, 2, 4, 32)};
        m = findRequiredModel(c, gpt2, small);
        QVERIFY(m.folder && m.folder->name == "gpt2");

        // Too small for the steps: the same model under another name (its sizes are GPT-2 small's) is used.
        m = findRequiredModel(c, gpt2, ModelUse{5, 12, false});
        QVERIFY(m.folder && m.folder->name == "GPT2-saved");
        QVERIFY(m.unusable && m.unusable->name == "gpt2");
        QCOMPARE(QString::fromStdString(m.problem),
                 QStringLiteral("gpt2 is a GPT-2 with 2 layers and 4 heads; this lesson's steps need at least 5 layers and 12 heads"));

        // Another family under the name, and no other GPT-2 small: nothing.
        c.models = {folder("gpt2", PretrainedFamily::Bert, 12, 12, 768), folder("distilgpt2", PretrainedFamily::Gpt2, 6, 12, 768)};
        m = findRequiredModel(c, gpt2, small);
        QVERIFY(!m.folder);
        QCOMPARE(QString::fromStdString(m.problem), QStringLiteral("gpt2 is a BERT with 12 layers and 12 heads; this lesson needs a GPT-2"));

        // A model of one's own is found by its name only.
        const ModelRequirement mine = parseRequirement("mine, type=gpt2");
        c.models = {folder("other", PretrainedFamily::Gpt2, 2, 4, 32)};
        QVERIFY(!findRequiredModel(c, mine, small).folder);
        c.models.push_back(folder("mine", PretrainedFamily::Gpt2, 2, 4, 32));
        QVERIFY(findRequiredModel(c, mine, small).folder == &c.models.back());
    }

    void familyFacts()
    {
        QCOMPARE(requiredFiles(PretrainedFamily::Gpt2), (std::vector<std::string>{"config.json", "model.safetensors", "vocab.json", "merges.txt"}));
        QCOMPARE(requiredFiles(PretrainedFamily::Bert), (std::vector<std::string>{"config.json", "model.safetensors", "vocab.txt"}));
        QVERIFY(familyBlock(PretrainedFamily::Gpt2) == Block::DecoderSelf);
        QVERIFY(familyBlock(PretrainedFamily::Bert) == Block::EncoderSelf);
        for (const char* id : {"tokens", "embedding", "positional_encoding", "input", "weights", "attn_norm", "ffn_hidden", "layer_output",
                               "decoder_output", "logits", "probabilities"})
            QVERIFY2(!familyStageProblem(PretrainedFamily::Gpt2, id), id);
        for (const char* id : {"tokens", "segment_embedding", "embedding_sum", "input", "weights", "attn_norm", "encoder_output",
                               "mlm_transform", "logits", "probabilities"})
            QVERIFY2(!familyStageProblem(PretrainedFamily::Bert, id), id);
        for (const char* id : {"encoder_output", "cross_residual", "cross_norm", "segment_embedding", "embedding_sum", "mlm_transform"})
            QVERIFY2(familyStageProblem(PretrainedFamily::Gpt2, id), id);
        for (const char* id : {"decoder_output", "cross_residual", "cross_norm"})
            QVERIFY2(familyStageProblem(PretrainedFamily::Bert, id), id);
    }
};

QTEST_APPLESS_MAIN(TestLessonRequirement)
#include "tst_lesson_requirement.moc"
