// Every backward function of engine/train/ against central finite differences in double
// precision: linear, LayerNorm (with and without β), ReLU and GELU, multi-head attention
// (self-attention with the causal mask, cross-attention, several packed sequences, an absent
// bias), the cross-entropy with and without label smoothing, and the whole encoder–decoder
// (Post-LN and Pre-LN, every tensor). Each layer is checked through L = Σ R∘output with a fixed
// random R, so that every output entry gets its own weight.

#include "train/layers.h"
#include "train/examples.h"
#include "train/network.h"
#include "train/tasks.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

using namespace attnlab;
using namespace attnlab::train;

namespace {

using MatD = Mat<double>;
using VecD = Vec<double>;

MatD randomMatrix(Eigen::Index rows, Eigen::Index cols, std::mt19937_64& g, double scale = 1.0)
{
    std::normal_distribution<double> n(0.0, scale);
    MatD m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = n(g);
    return m;
}

/// Central differences of loss() with respect to every entry of `values` (h = 1e-6), against
/// `analytic`: within 1e-7 + 1e-6·|g|. Returns the largest error.
double checkGradient(double* values, Eigen::Index size, const double* analytic, const std::function<double()>& loss, const char* what)
{
    double worst = 0;
    const double h = 1e-6;
    for (Eigen::Index i = 0; i < size; ++i) {
        const double keep = values[i];
        values[i] = keep + h;
        const double up = loss();
        values[i] = keep - h;
        const double down = loss();
        values[i] = keep;
        const double numeric = (up - down) / (2 * h);
        const double err = std::abs(numeric - analytic[i]);
        worst = std::max(worst, err);
        if (err > 1e-7 + 1e-6 * std::abs(analytic[i]))
            qWarning("%s[%lld]: finite difference %.12g, backward %.12g", what, static_cast<long long>(i), numeric, analytic[i]);
        if (err > 1e-7 + 1e-6 * std::abs(analytic[i]))
            return err;
    }
    return worst;
}

bool ok(double err) { return err < 1e-6; }

/// A linear layer over owned buffers.
struct OwnedLinear {
    MatD w, dw;
    VecD b, db;
    Linear<double> view(bool bias = true)
    {
        Linear<double> l;
        l.w = w.data();
        l.dw = dw.data();
        if (bias) {
            l.b = b.data();
            l.db = db.data();
        }
        l.out = w.rows();
        l.in = w.cols();
        l.ld = w.rows();
        return l;
    }
    void zero()
    {
        dw.setZero();
        db.setZero();
    }
};

OwnedLinear randomLinear(Eigen::Index out, Eigen::Index in, std::mt19937_64& g)
{
    return {randomMatrix(out, in, g, 1.0 / std::sqrt(double(in))), MatD::Zero(out, in), randomMatrix(out, 1, g, 0.1), VecD::Zero(out)};
}

} // namespace

class BackwardTest : public QObject {
    Q_OBJECT

private slots:
    void linear()
    {
        std::mt19937_64 g(1);
        MatD x = randomMatrix(5, 4, g);
        OwnedLinear p = randomLinear(3, 4, g);
        const MatD r = randomMatrix(5, 3, g);
        auto loss = [&] {
            MatD y;
            linearForward(x, p.view(), y);
            return (r.array() * y.array()).sum();
        };
        MatD dx;
        linearBackward(x, r, p.view(), &dx);
        QVERIFY(ok(checkGradient(x.data(), x.size(), dx.data(), loss, "dx")));
        QVERIFY(ok(checkGradient(p.w.data(), p.w.size(), p.dw.data(), loss, "dW")));
        QVERIFY(ok(checkGradient(p.b.data(), p.b.size(), p.db.data(), loss, "db")));
        // A block of rows (W_K inside in_proj) reads and writes only its rows.
        p.zero();
        const Linear<double> block = p.view().rows(1, 2);
        MatD y;
        linearForward(x, block, y);
        QCOMPARE(y.cols(), Eigen::Index(2));
        linearBackward(x, MatD(r.leftCols(2)), block, &dx);
        QCOMPARE(p.dw.row(0).norm(), 0.0);
        QVERIFY(p.dw.row(1).norm() > 0);
    }

    void layerNorm_data()
    {
        QTest::addColumn<bool>("beta");
        QTest::newRow("with beta") << true;
        QTest::newRow("without beta") << false;
    }

    void layerNorm()
    {
        QFETCH(bool, beta);
        std::mt19937_64 g(2);
        MatD x = randomMatrix(4, 6, g);
        VecD gamma = VecD::Ones(6) + randomMatrix(6, 1, g, 0.1), b = randomMatrix(6, 1, g, 0.1);
        VecD dgamma = VecD::Zero(6), db = VecD::Zero(6);
        Norm<double> p{gamma.data(), dgamma.data(), beta ? b.data() : nullptr, beta ? db.data() : nullptr, 6, 1e-5};
        const MatD r = randomMatrix(4, 6, g);
        auto loss = [&] {
            NormCache<double> c;
            MatD y;
            layerNormForward(x, p, c, y);
            return (r.array() * y.array()).sum();
        };
        NormCache<double> c;
        MatD y, dx;
        layerNormForward(x, p, c, y);
        // Each row of the output has mean β̄-free mean 0 and variance 1 before γ, β.
        QVERIFY(c.xhat.rowwise().mean().cwiseAbs().maxCoeff() < 1e-12);
        layerNormBackward(r, p, c, dx);
        QVERIFY(ok(checkGradient(x.data(), x.size(), dx.data(), loss, "dx")));
        QVERIFY(ok(checkGradient(gamma.data(), 6, dgamma.data(), loss, "dgamma")));
        if (beta)
            QVERIFY(ok(checkGradient(b.data(), 6, db.data(), loss, "dbeta")));
        // dx of a row sums to 0: shifting a whole row does not change LN.
        QVERIFY(dx.rowwise().sum().cwiseAbs().maxCoeff() < 1e-12);
    }

    void activation_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("relu") << int(Activation::Relu);
        QTest::newRow("gelu") << int(Activation::Gelu);
    }

    void activation()
    {
        QFETCH(int, kind);
        const auto a = static_cast<Activation>(kind);
        std::mt19937_64 g(3);
        MatD x = randomMatrix(3, 5, g);
        const MatD r = randomMatrix(3, 5, g);
        auto loss = [&] {
            MatD y;
            activationForward(a, x, y);
            return (r.array() * y.array()).sum();
        };
        MatD dx;
        activationBackward(a, x, r, dx);
        QVERIFY(ok(checkGradient(x.data(), x.size(), dx.data(), loss, "dx")));
        // By hand: GELU(1) = Φ(1) = 0.8413447460685429; GELU'(0) = 1/2.
        MatD one = MatD::Constant(1, 1, 1.0), y, d;
        activationForward(Activation::Gelu, one, y);
        QVERIFY(std::abs(y(0, 0) - 0.8413447460685429) < 1e-15);
        activationBackward(Activation::Gelu, MatD(MatD::Zero(1, 1)), MatD(MatD::Ones(1, 1)), d);
        QCOMPARE(d(0, 0), 0.5);
    }

    void attention_data()
    {
        QTest::addColumn<bool>("cross");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("bias");
        QTest::newRow("self, causal") << false << true << true;
        QTest::newRow("self, every key") << false << false << true;
        QTest::newRow("cross") << true << false << true;
        QTest::newRow("cross, no bias") << true << false << false;
    }

    /// Two packed sequences (3 and 2 query rows; cross: 4 and 1 key rows), d 6, 2 heads.
    void attention()
    {
        QFETCH(bool, cross);
        QFETCH(bool, causal);
        QFETCH(bool, bias);
        std::mt19937_64 g(4);
        const Eigen::Index d = 6;
        Segments seg;
        seg.query = {0, 3, 5};
        seg.key = cross ? std::vector<Eigen::Index>{0, 4, 5} : seg.query;
        MatD xq = randomMatrix(5, d, g);
        MatD xkv = cross ? randomMatrix(5, d, g) : xq;
        OwnedLinear in = randomLinear(3 * d, d, g), out = randomLinear(d, d, g);
        const MatD r = randomMatrix(5, d, g);
        auto params = [&] {
            AttentionParams<double> p;
            p.inProj = in.view(bias);
            p.outProj = out.view(bias);
            p.heads = 2;
            return p;
        };
        auto loss = [&] {
            AttentionCache<double> c;
            MatD o;
            attentionForward(xq, cross ? xkv : xq, params(), seg, causal, c, o);
            return (r.array() * o.array()).sum();
        };
        AttentionCache<double> c;
        MatD o, dxq, dxkv;
        attentionForward(xq, cross ? xkv : xq, params(), seg, causal, c, o);
        // Rows of every head's weights sum to 1; a causal row has nothing above the diagonal;
        // nothing crosses from one sequence to the other (the blocks are each sequence's own).
        for (const MatD& w : c.p) {
            QVERIFY((w.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-12);
            if (causal)
                QCOMPARE(w.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().norm(), 0.0);
        }
        QCOMPARE(c.p.size(), std::size_t(4));
        attentionBackward(xq, cross ? xkv : xq, r, params(), seg, c, dxq, dxkv);
        if (!cross)
            dxq += dxkv;
        QVERIFY(ok(checkGradient(xq.data(), xq.size(), dxq.data(), loss, "dxq")));
        if (cross)
            QVERIFY(ok(checkGradient(xkv.data(), xkv.size(), dxkv.data(), loss, "dxkv")));
        QVERIFY(ok(checkGradient(in.w.data(), in.w.size(), in.dw.data(), loss, "dW_in")));
        QVERIFY(ok(checkGradient(out.w.data(), out.w.size(), out.dw.data(), loss, "dW_O")));
        if (bias) {
            QVERIFY(ok(checkGradient(in.b.data(), in.b.size(), in.db.data(), loss, "db_in")));
            QVERIFY(ok(checkGradient(out.b.data(), out.b.size(), out.db.data(), loss, "db_O")));
            // The key bias adds the same number to every score of a row: its gradient is 0.
            QVERIFY(in.db.segment(d, d).cwiseAbs().maxCoeff() < 1e-12);
        } else {
            QCOMPARE(in.db.norm(), 0.0);
        }
    }

    void crossEntropy_data()
    {
        QTest::addColumn<double>("smoothing");
        QTest::newRow("no smoothing") << 0.0;
        QTest::newRow("smoothing 0.1") << 0.1;
    }

    void crossEntropy()
    {
        QFETCH(double, smoothing);
        std::mt19937_64 g(5);
        MatD z = randomMatrix(4, 7, g, 2.0);
        const std::vector<int> labels{0, 6, 3, 3};
        const double n = 10; // the whole batch has 10 label tokens, these are 4 of them
        auto loss = [&] {
            MatD dz;
            return train::crossEntropy(z, labels, smoothing, n, dz) / n;
        };
        MatD dz;
        const double total = train::crossEntropy(z, labels, smoothing, n, dz);
        QVERIFY(ok(checkGradient(z.data(), z.size(), dz.data(), loss, "dz")));
        // By hand for row 0: (1 − ε)·(−log p_y) + ε/V·Σ_c (−log p_c).
        double sum = 0;
        for (Eigen::Index i = 0; i < 4; ++i) {
            const VecD row = z.row(i).transpose();
            const double lse = std::log(row.array().exp().sum());
            sum += (1 - smoothing) * (lse - row(labels[std::size_t(i)])) + smoothing / 7.0 * (7 * lse - row.sum());
        }
        QVERIFY(std::abs(total - sum) < 1e-12);
        // Each row of dlogits sums to 0 (a constant added to a row's logits changes nothing).
        QVERIFY(dz.rowwise().sum().cwiseAbs().maxCoeff() < 1e-15);
    }

    void network_data()
    {
        QTest::addColumn<int>("norm");
        QTest::addColumn<int>("activation");
        QTest::newRow("post-ln relu") << int(NormPlacement::Post) << int(Activation::Relu);
        QTest::newRow("pre-ln gelu") << int(NormPlacement::Pre) << int(Activation::Gelu);
    }

    /// The whole model: 2 + 2 layers, d 8, 2 heads, three pairs packed; 3 entries of every
    /// tensor (the one with the largest gradient and two others) by finite differences.
    void network()
    {
        QFETCH(int, norm);
        QFETCH(int, activation);
        ModelSpec spec;
        spec.dModel = 8;
        spec.heads = 2;
        spec.dFF = 12;
        spec.encoderLayers = spec.decoderLayers = 2;
        spec.norm = static_cast<NormPlacement>(norm);
        spec.activation = static_cast<Activation>(activation);
        spec.seed = 7;
        const Seq2SeqModel model = freshModel(spec, builtInTask(TaskKind::Reverse, 4, 1));
        std::vector<Message> warnings;
        const std::vector<Example> examples{exampleOf(model, "ab3", "3ba", warnings), exampleOf(model, "猫z", "z猫", warnings),
                                            exampleOf(model, "q", "q", warnings)};
        const Layout layout = layoutOf(model);
        VecD values = flatten<double>(model);
        VecD grads = VecD::Zero(layout.size);
        const Batch batch = pack(examples, 0, examples.size());
        const Network<double> net = bindNetwork(layout, model.spec, values.data(), grads.data(), 8);
        // N = 9 label tokens: "3ba" + <eos>, "z猫" + <eos>, "q" + <eos>; label smoothing 0.1.
        QCOMPARE(labelTokens(examples, 0, 3), std::size_t(9));
        lossAndGradient(net, batch, 0.1, 9.0, true);
        auto loss = [&] {
            VecD scratch = VecD::Zero(layout.size);
            const Network<double> probe = bindNetwork(layout, model.spec, values.data(), scratch.data(), 8);
            return lossAndGradient(probe, batch, 0.1, 9.0, false) / 9.0;
        };
        std::mt19937_64 g(8);
        for (const Layout::Entry& e : layout.entries) {
            const Eigen::Index size = e.rows * e.cols;
            Eigen::Index largest = 0;
            grads.segment(e.offset, size).cwiseAbs().maxCoeff(&largest);
            for (const Eigen::Index i : {largest, Eigen::Index(g() % size), Eigen::Index(g() % size)})
                QVERIFY2(ok(checkGradient(values.data() + e.offset + i, 1, grads.data() + e.offset + i, loss, e.name.c_str())),
                         e.name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(BackwardTest)
#include "tst_backward.moc"
