// The key/value cache's size per generated token, 2 · layers · kv_heads · head_dim · bytes, from
// each model's published config.json (the numbers worked out by hand below).

#include "pretrained/kv_cache_size.h"

#include <QtTest>

using namespace attnlab;

class TestKvCacheSize : public QObject {
    Q_OBJECT
private slots:
    void smolLm2IsGroupedQuery()
    {
        // HuggingFaceTB/SmolLM2-135M: 30 layers, 9 query heads over 3 key/value heads, 576 / 9 = 64.
        const HfConfig c = parseHfConfig(R"({"model_type": "llama", "hidden_size": 576, "intermediate_size": 1536,
            "num_hidden_layers": 30, "num_attention_heads": 9, "num_key_value_heads": 3, "vocab_size": 49152,
            "max_position_embeddings": 8192, "rms_norm_eps": 1e-5, "rope_theta": 100000, "hidden_act": "silu",
            "tie_word_embeddings": true})");
        const KvCacheShape s = kvCacheShape(c);
        QCOMPARE(s.layers, 30);
        QCOMPARE(s.heads, 9);
        QCOMPARE(s.kvHeads, 3);
        QCOMPARE(s.headDim, 64);
        QCOMPARE(s.bytesPerToken(s.kvHeads, 2), std::int64_t{23040});   // 2·30·3·64·2 (BF16)
        QCOMPARE(s.bytesPerToken(s.kvHeads, 4), std::int64_t{46080});   // float32
        QCOMPARE(s.bytesPerToken(s.heads, 4), std::int64_t{138240});    // multi-head: 3× as much
        QCOMPARE(s.bytesPerToken(1, 4), std::int64_t{15360});           // multi-query
    }

    void qwen3HasItsOwnHeadDim()
    {
        // Qwen/Qwen3-0.6B: 28 layers, 16 query heads over 8, head_dim 128 (not 1024 / 16 = 64).
        const HfConfig c = parseHfConfig(R"({"model_type": "qwen3", "hidden_size": 1024, "intermediate_size": 3072,
            "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
            "vocab_size": 151936, "max_position_embeddings": 40960, "rms_norm_eps": 1e-6, "rope_theta": 1000000,
            "hidden_act": "silu", "tie_word_embeddings": true})");
        const KvCacheShape s = kvCacheShape(c);
        QCOMPARE(s.headDim, 128);
        QCOMPARE(s.bytesPerToken(s.kvHeads, 2), std::int64_t{114688}); // 2·28·8·128·2
    }

    void gpt2IsMultiHead()
    {
        // GPT-2 small: 12 layers, 12 heads, 768 / 12 = 64; every head has its own key and value.
        const HfConfig c = parseHfConfig(R"({"model_type": "gpt2", "n_embd": 768, "n_head": 12, "n_layer": 12,
            "n_positions": 1024, "vocab_size": 50257, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-05})");
        const KvCacheShape s = kvCacheShape(c);
        QCOMPARE(s.kvHeads, 12);
        QCOMPARE(s.headDim, 64);
        QCOMPARE(s.bytesPerToken(s.kvHeads, 4), std::int64_t{73728}); // 2·12·12·64·4
    }
};

QTEST_MAIN(TestKvCacheSize)
#include "tst_kv_cache_size.moc"
