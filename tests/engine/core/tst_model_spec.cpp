// ModelSpec: one description of a model, one validate(). The layer rules in the words the
// settings use ("layers" for the paper's N, each stack's count otherwise), the encoder stack,
// the names of every enum, and a Config's rules coming after its ModelSpec's.
#include "core/config.h"
#include "core/model_spec.h"
#include "io/config_json.h"

#include <QtTest>

#include <stdexcept>

using namespace attnlab;

namespace {

QStringList problemsOf(const ModelSpec& s)
{
    QStringList out;
    for (const auto& p : s.problems())
        out << QString::fromStdString(p);
    return out;
}

} // namespace

class TestModelSpec : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreThePapersShape()
    {
        const ModelSpec s;
        QVERIFY(s.problems().empty());
        QVERIFY(s.architecture == Architecture::EncoderDecoder);
        QVERIFY(s.attention == AttentionKind::Full);
        QCOMPARE(s.encoderLayers, 2);
        QCOMPARE(s.decoderLayers, 2);
        QCOMPARE(s.feedForwardWidth(), 128); // 4 x 32
        QCOMPARE(s.dK(), 8);
    }

    void feedForwardWidthOfAnUnvalidatedSpec()
    {
        // Found by fuzz_config_json under UBSan: d_model 2147248152 read from a file made
        // 4·d_model overflow an int before validate() could refuse it.
        ModelSpec s;
        s.dModel = 2147248152;
        QCOMPARE(s.feedForwardWidth(), std::numeric_limits<int>::max());
        QVERIFY(!s.problems().empty());
    }

    void setLayersFollowsTheArchitecture()
    {
        ModelSpec s;
        s.setLayers(5);
        QCOMPARE(s.encoderLayers, 5);
        QCOMPARE(s.decoderLayers, 5);
        s.architecture = Architecture::EncoderStack;
        s.setLayers(3);
        QCOMPARE(s.encoderLayers, 3);
        QCOMPARE(s.decoderLayers, 0);
        QVERIFY(s.problems().empty());
    }

    void layerRules_data()
    {
        QTest::addColumn<int>("architecture");
        QTest::addColumn<int>("encoder");
        QTest::addColumn<int>("decoder");
        QTest::addColumn<QStringList>("problems");
        const int stack = static_cast<int>(Architecture::EncoderStack);
        const int both = static_cast<int>(Architecture::EncoderDecoder);
        QTest::newRow("N = 0") << both << 0 << 0 << QStringList{"layers (0) must be between 1 and 12"};
        QTest::newRow("N = 13") << both << 13 << 13 << QStringList{"layers (13) must be between 1 and 12"};
        QTest::newRow("unequal, fine") << both << 3 << 1 << QStringList{};
        QTest::newRow("no encoder layer") << both << 0 << 2 << QStringList{}; // the memory is given
        QTest::newRow("unequal, too many") << both << 13 << 2 << QStringList{"encoder_layers (13) must be between 0 and 12"};
        QTest::newRow("negative decoder") << both << 1 << -1 << QStringList{"decoder_layers (-1) must be between 0 and 12"};
        QTest::newRow("encoder stack") << stack << 4 << 0 << QStringList{};
        QTest::newRow("empty encoder stack") << stack << 0 << 0 << QStringList{"layers (0) must be between 1 and 12"};
        QTest::newRow("encoder stack, 13") << stack << 13 << 0 << QStringList{"layers (13) must be between 1 and 12"};
        QTest::newRow("encoder stack with a decoder") << stack << 2 << 2
                                                      << QStringList{"an encoder stack has no decoder layers (decoder_layers is 2)"};
    }
    void layerRules()
    {
        QFETCH(int, architecture);
        QFETCH(int, encoder);
        QFETCH(int, decoder);
        QFETCH(QStringList, problems);
        ModelSpec s;
        s.architecture = static_cast<Architecture>(architecture);
        s.encoderLayers = encoder;
        s.decoderLayers = decoder;
        QCOMPARE(problemsOf(s), problems);
    }

    void otherRules()
    {
        ModelSpec s;
        s.maxTargetLength = 0;
        QCOMPARE(problemsOf(s), QStringList{"max_target_length (0) must be between 1 and 1024"});
        s = ModelSpec{};
        s.dFF = 8193;
        s.layerNormEps = -1;
        QCOMPARE(problemsOf(s), (QStringList{"layer_norm_eps (-1) must be a positive number",
                                             "d_ff (8193) must be 0 (4·d_model) or between 1 and 8192"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.validate());
    }

    void aConfigStatesItsModelSpecFirst()
    {
        Config c;
        c.maxTokens = 0;
        c.heads = 0;
        const auto p = c.problems();
        QCOMPARE(p.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(p[0]), QString("heads (0) must be between 1 and 64"));
        QCOMPARE(QString::fromStdString(p[1]), QString("max_tokens (0) must be between 1 and 1024"));
        // A Config is a ModelSpec: a seeded model takes it as it is.
        const ModelSpec& spec = c;
        QCOMPARE(spec.dModel, c.dModel);
    }

    void namesBothWays()
    {
        for (const auto a : {Architecture::EncoderStack, Architecture::EncoderDecoder, Architecture::DecoderOnly})
            QVERIFY(parseArchitecture(toString(a)) == a);
        QCOMPARE(QString::fromUtf8(toString(Architecture::EncoderDecoder).data()), QString("encoder-decoder"));
        QVERIFY(parseAttentionKind("full") == AttentionKind::Full);
        for (const auto t : {ModelTokenizer::Words, ModelTokenizer::Chars, ModelTokenizer::Bpe, ModelTokenizer::WordPiece})
            QVERIFY(parseModelTokenizer(toString(t)) == t);
        QVERIFY(!parseArchitecture("decoder-only"));
        QVERIFY(!parseModelTokenizer("bpe"));
    }

    void configJsonKeepsTheArchitecture()
    {
        Config c;
        c.model = ModelKind::Seeded;
        c.encoderLayers = 3;
        c.decoderLayers = 1;
        const Config back = configFromJson(configToJson(c));
        QCOMPARE(back.encoderLayers, 3);
        QCOMPARE(back.decoderLayers, 1);
        c.architecture = Architecture::EncoderStack;
        c.setLayers(4);
        const Config stack = configFromJson(configToJson(c));
        QVERIFY(stack.architecture == Architecture::EncoderStack);
        QCOMPARE(stack.encoderLayers, 4);
        QCOMPARE(stack.decoderLayers, 0);
        // A single block's JSON stays as it was: no model keys, no attention kind when full.
        Config block;
        const auto j = configToJson(block);
        QVERIFY(!j.contains("architecture") && !j.contains("attention") && !j.contains("layers"));
    }
};

QTEST_GUILESS_MAIN(TestModelSpec)
#include "tst_model_spec.moc"
