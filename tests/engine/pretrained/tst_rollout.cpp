// Attention rollout (Abnar & Zuidema 2020): R = Ã_L ··· Ã_1, Ã_l = ½·mean_h(A_l,h) + ½·I. Checked
// on a hand computation that tells the product's order apart, and on the PyTorch attention
// weights of the reference folders (tests/reference/hf/), multiplied here in plain loops.

#include "core/stage_builder.h"
#include "pretrained/forward.h"
#include "support/hf.h"
#include "support/reference.h"

#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

using Square = std::vector<std::vector<double>>;

Square multiply(const Square& a, const Square& b)
{
    const std::size_t n = a.size();
    Square c(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t j = 0; j < n; ++j)
                c[i][j] += a[i][k] * b[k][j];
    return c;
}

void addWeights(StageList& stages, int layer, int head, const Eigen::MatrixXf& a, const Labels& tokens)
{
    detail::putMatrix(detail::addStage(stages, {"weights", head, layer, Block::EncoderSelf}, "w", ""), "A", a, tokens, tokens);
}

} // namespace

class TestRollout : public QObject {
    Q_OBJECT

private slots:
    void byHand()
    {
        // Layer 1: both tokens attend token 1, A = [[1, 0], [1, 0]]  ->  Ã_1 = [[1, 0], [½, ½]].
        // Layer 2: heads [[0, 1], [0, 1]] and [[0, 1], [0, 1]]: mean the same  ->  Ã_2 = [[½, ½], [0, 1]].
        // R = Ã_2·Ã_1 = [[½ + ¼, ¼], [½, ½]] = [[0.75, 0.25], [0.5, 0.5]]  (Ã_1·Ã_2 would be [[½, ½], [¼, ¾]]).
        const Labels tokens = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a", "b"});
        StageList stages;
        Eigen::MatrixXf first(2, 2), second(2, 2);
        first << 1, 0, 1, 0;
        second << 0, 1, 0, 1;
        addWeights(stages, 0, 0, first, tokens);
        addWeights(stages, 0, 1, first, tokens);
        addWeights(stages, 1, 0, second, tokens);
        addWeights(stages, 1, 1, second, tokens);
        detail::addRollout(2, 2, Block::EncoderSelf, tokens, stages);
        const Eigen::MatrixXf& r = stages.back().main().values;
        QCOMPARE(stages.back().id, std::string("rollout"));
        QCOMPARE(r(0, 0), 0.75f);
        QCOMPARE(r(0, 1), 0.25f);
        QCOMPARE(r(1, 0), 0.5f);
        QCOMPARE(r(1, 1), 0.5f);
    }

    void fromThePyTorchWeights_data()
    {
        QTest::addColumn<QString>("golden");
        QTest::newRow("gpt2") << "gpt2_f32";
        QTest::newRow("bert") << "bert_mlm_f32";
    }

    void fromThePyTorchWeights()
    {
        QFETCH(QString, golden);
        const auto g = readJson(hfDir() + "/" + golden.toStdString() + ".json");
        const PretrainedWeights w = openWeights(hfDir() + "/" + g.at("folder").get<std::string>());
        const auto& input = g.at("inputs").at(0);
        PretrainedInput in;
        in.ids = input.at("token_ids").get<std::vector<int>>();
        if (input.contains("segment_ids"))
            in.segments = input.at("segment_ids").get<std::vector<int>>();
        in.tokens = std::make_shared<const std::vector<std::string>>(input.at("tokens").get<std::vector<std::string>>());
        const std::size_t n = in.ids.size();
        // The rollout of the reference's weights: Ã per layer (mean of its heads, half identity).
        const int layers = w.config.layers, heads = w.config.heads;
        std::vector<Square> tilde(static_cast<std::size_t>(layers), Square(n, std::vector<double>(n, 0.0)));
        for (const auto& st : input.at("stages")) {
            if (st.at("id") != "weights")
                continue;
            const auto l = st.at("layer").get<std::size_t>();
            const Eigen::MatrixXf a = jsonMatrix(st.at("data"));
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j)
                    tilde[l][i][j] += 0.5 * a(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) / heads;
        }
        Square want = tilde[0];
        for (std::size_t i = 0; i < n; ++i)
            want[i][i] += 0.5;
        for (int l = 1; l < layers; ++l) {
            Square t = tilde[static_cast<std::size_t>(l)];
            for (std::size_t i = 0; i < n; ++i)
                t[i][i] += 0.5;
            want = multiply(t, want);
        }
        StageList stages;
        std::vector<Message> warnings;
        auto vocabulary = std::make_shared<std::vector<std::string>>(static_cast<std::size_t>(w.config.vocabulary), "t");
        pretrainedPass(w, pretrainedSpec(w.config), in, vocabulary, stages, warnings);
        const Stage* r = findStage(stages, "rollout", std::nullopt, std::nullopt, Block::None);
        QVERIFY(r);
        QCOMPARE(static_cast<std::size_t>(r->main().values.rows()), n);
        for (std::size_t i = 0; i < n; ++i) {
            double sum = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const float got = r->main().values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
                QVERIFY2(std::abs(got - want[i][j]) < 1e-5, qPrintable(QString("(%1, %2): %3 vs %4").arg(i).arg(j).arg(got).arg(want[i][j])));
                sum += got;
            }
            QVERIFY(std::abs(sum - 1.0) < 1e-5); // rows of a product of row-stochastic matrices
        }
    }
};

QTEST_GUILESS_MAIN(TestRollout)
#include "tst_rollout.moc"
