// The --help text: the commands and examples, and the options of trace and export.

#include "options.h"

#include "core/options.h"

namespace attnlab::cli {

/// The examples and the trace JSON's shape, after the commands.
static std::string usageExamples();

std::string usageHelp()
{
    return R"(Usage: attention-lab-cli COMMAND [OPTIONS]

Attention Lab computes every stage of Transformer multi-head self-attention for a sentence.

Commands:
  trace      compute every stage and write them as JSON (docs/trace-format.md)
  export     draw one stage's heatmap as PNG, SVG or PDF, or write its matrix as CSV;
             with --all, every stage and head into a folder. Needs no display.
  lesson     render a lesson to a slide deck: one PDF page (or one PNG) per step.
             attention-lab-cli lesson FILE [--output deck.pdf] [--format pdf|png]
                                           [--output-dir DIR] [--dpi N]
             FILE is a lesson file (docs/lesson-format.md) or a shipped lesson such as
             zh/04-look-ahead-mask. Chinese lessons get Chinese stage names. Needs no display.
  generate   greedy generation with a trained encoder–decoder, one token per step:
             attention-lab-cli generate --model reversal --source "attention"
                                        [--output-dir DIR] [--max-length N]
             prints each generated token with its probability; --output-dir writes
             the trace of every step (step-01.json, ...)
             With a GPT-2, Llama, Mistral, Qwen2, Qwen3 or Gemma 3 folder
             (docs/pretrained-models.md), a key/value cache:
             attention-lab-cli generate --model DIR --prompt TEXT --max-new-tokens N
                 [--temperature T] [--top-k K] [--top-p P] [--seed S] [--output-dir DIR] [--json]
             greedy unless --temperature is given (T from 1.4e-45 to 3.4e+38: softmax of
             (logits - max) / T in double, so a tiny T picks the greedy token, never an
             overflow); one line per token: its text as a JSON string, a tab, its
             probability; --json: {"prompt_ids", "generated_ids",
             "tokens", "probabilities"}
  fill-mask  BERT's likeliest tokens at each [MASK]:
             attention-lab-cli fill-mask --model DIR --sentence "Paris is the [MASK] of France."
                 [--segment-b TEXT] [--top-k K] [--json]
  cost       time one attention kind against the sequence length n, Q, K, V given
             (docs/attention-kinds.md): median time, peak extra memory, FLOPs, GFLOP/s
             and the log-log slope of time against n:
             attention-lab-cli cost --attention KIND [kind options] [--n 256,512,...]
                 [--d-model D] [--heads H] [--repeats R] [--seed S] [--json]
  train      train a small encoder-decoder on a task and save it (docs/training.md):
             attention-lab-cli train --task copy|reverse|sort|FILE.tsv --save-model OUT
                 [--preset classroom|standard] [--layers L --d-model D --heads H --d-ff F
                 --norm post|pre --activation relu|gelu] [--steps N] [--batch B] [--lr R]
                 [--warmup W] [--label-smoothing E] [--clip-norm C] [--max-length L]
                 [--seed S] [--threads T] [--init MODEL] [--batch-all] [--tokenizer words|chars]
                 [--log FILE.csv] [--snapshots DIR]
             --data FILE.tsv is --task FILE.tsv. Prints progress (step, loss, held-out
             exact match, steps/s) and ends with the held-out exact match.
  grad       the gradient of the mean cross-entropy of one pair for every tensor of a model:
             attention-lab-cli grad --model FILE --source TEXT --target TEXT --output G.safetensors
                 [--label-smoothing E]
  download   a model folder from the Hugging Face Hub (or a mirror) into the Models folder:
             attention-lab-cli download REPO_ID [--revision R] [--endpoint URL] [--models-dir DIR]
             REPO_ID is owner/name (openai-community/gpt2), or a model Attention Lab knows by
             its folder name (gpt2, bert-base-uncased, bert-base-chinese). Only the files the
             engine reads are fetched, each verified (SHA-256 or size); the folder appears
             under its name only when complete, and a download stopped by a lost connection,
             a signal or a full disk goes on from where it stopped the next time.
             --revision: a branch, tag or commit (default main); --endpoint: the hub or a
             mirror (else HF_ENDPOINT, else the studio's setting, else https://huggingface.co);
             HF_TOKEN: the access token of a gated model; --models-dir: where the folder goes
             (else ATTNLAB_MODELS_DIR, else the studio's choice). Progress on stderr.
  help       show this help
  --version  print the version

)" + usageExamples();
}

static std::string usageExamples()
{
    return R"(Examples:
  attention-lab-cli export --sentence "狗咬了人" --stage weights --head 1 --output weights.png
  attention-lab-cli export --sentence "The cat sat" --mask causal --all --format pdf --output-dir slides
  attention-lab-cli trace --layers 6 --d-model 512 --heads 8 --sentence "A six-layer encoder"
  attention-lab-cli export --model reversal --source "attention" --stage weights --layer 2 --block cross --head 1 --output cross.png
  attention-lab-cli export --sentence "狗咬了人" --pe none --compare "人咬了狗" --stage weights --head 1 --output compare.png
  attention-lab-cli trace --model ~/models/gpt2 --sentence "The animal didn't cross the street" --stages weights
  attention-lab-cli fill-mask --model ~/models/bert-base-uncased --sentence "Paris is the [MASK] of France."
  attention-lab-cli download openai-community/gpt2
  HF_ENDPOINT=https://hf-mirror.com attention-lab-cli download bert-base-chinese

The trace JSON is {"format": "attention-lab.trace", "version": 1, "tokens", "config",
"warnings", "stages"}; each stage is {"id", "head", "title", "formula", "matrices"} with
matrices {"name", "rows", "cols", "row_labels", "col_labels", "data"}; non-finite values are
the strings "-inf", "inf", "nan". Stage ids, in order: embedding, positional_encoding, input,
q, k, v, scores, scaled, mask, masked_scores, weights, head_output, concat, output.
A Transformer's trace also has "target_tokens", and every stage a "layer" and a "block"
(encoder_self, decoder_self, cross); its layers add attn_residual, attn_norm, cross_residual,
cross_norm, ffn_hidden, ffn_output, ffn_residual, ffn_norm, layer_output, then
encoder_output, decoder_output, logits, probabilities (docs/transformer-layers.md).

Options of trace:
)";
}

std::string traceOptionsHelp()
{
    return R"(Input:
  --sentence TEXT        the sentence (default: "The animal didn't cross the street because it was too tired.")
                         Latin text splits into words and punctuation, CJK text per character;
                         <sos> <eos> <pad> <unk> [CLS] [SEP] [MASK] stay whole.
  --max-tokens N         keep at most N tokens, 1..1024 (default 512; a warning says when cut)
  --pad-to N             append <pad> tokens up to length N (a Transformer: its source)
Model:
  --d-model N            width d_model, 1..2048 (default 32; taken from --weights when given)
  --heads H              attention heads, 1..64, must divide d_model (default 4)
  --seed S               seed of embeddings, learned positions and seeded weights (default 42)
  --pe KIND              positional encoding: sinusoidal (default) | learned | none, added to X;
                         or rope | alibi | relative | xl, inside attention
                         (docs/position-schemes.md): rope turns q and k by position, alibi adds
                         -m_h*|i - j| to the scores, relative adds a learned key and value per
                         distance j - i, xl (Transformer-XL) attends segment by segment with a
                         memory of the rows before, from relative distances (causal)
)" + optionsHelp([](const OptionInfo& o) { return !isKindOption(o); }) + R"(  --no-embed-scale       do not multiply embeddings by sqrt(d_model)
  --no-scale             do not divide scores by sqrt(d_k)
  --mask KIND            none (default) | causal | padding | causal+padding; a Transformer
                         takes it in every encoder layer (PyTorch's src_mask and
                         src_key_padding_mask), and padding hides the source's <pad> keys in
                         every cross-attention too (memory_key_padding_mask)
  --mask-file FILE       a custom n x n mask: n lines of n values 0/1, 1 = masked
Attention kind (docs/attention-kinds.md; one attention block or a seeded encoder stack):
  --attention KIND       full (default) | sliding-window | bigbird | strided | linformer |
                         performer | linear | lsh | flash
)" + optionsHelp(isKindOption) + R"(Transformer (docs/transformer-layers.md, docs/model-format.md):
  --model PATH           an encoder–decoder model in safetensors (docs/model-format.md);
                         'reversal' is the trained model shipped inside the program; a
                         Hugging Face folder of GPT-2, BERT, Llama, Mistral, Qwen2, Qwen3
                         or Gemma 3 (config.json, model.safetensors or its shards, tokenizer
                         files; docs/pretrained-models.md), which reads --sentence;
                         or a bare PyTorch state dict of nn.Transformer's modules, with --heads
                         (and --norm, --activation, --layer-norm-eps when not PyTorch's defaults)
  --segment-b TEXT       BERT's second segment: [CLS] sentence [SEP] TEXT [SEP]
  --source TEXT          the encoder's input of an encoder–decoder
  --target TEXT          teacher forcing: the decoder reads <sos> + TEXT (needs --model, or
                         --source for a seeded model). Without it a trained model generates
                         greedily and the trace is the last generation step
  --layers N             a seeded Transformer with N layers, 1..12: an encoder stack on
                         --sentence, or N encoder and N decoder layers with --source/--target
  --d-ff N               the feed-forward width of a seeded Transformer (default 4·d_model)
  --norm post|pre        LayerNorm after (post, the paper, default) or before each sublayer
  --activation relu|gelu the feed-forward network's non-linearity (default relu)
  --layer-norm-eps E     the ε of every LayerNorm (default 1e-05, as PyTorch)
  --save-model FILE      also write the Transformer used, in the same safetensors layout
Weights:
  --weights-preset P     seeded (default: Xavier-uniform as PyTorch) | identity (W = I)
  --weights FILE         a PyTorch nn.MultiheadAttention state dict in safetensors
                         (in_proj_weight [3d, d], in_proj_bias [3d], out_proj.weight [d, d],
                         out_proj.bias [d]; F32, F64, F16 or BF16; optionally under a prefix)
  --weights-prefix P     the prefix to use when the file holds several attention blocks
  --save-weights FILE    also write the weights used, in the same safetensors layout
Output:
  --output FILE, -o FILE where to write the trace JSON; - is stdout (default)
  --pretty               indent the JSON
  --stages ID,ID,...     trace: write only the stages with these ids (e.g. weights,logits)
)";
}

std::string exportOptionsHelp()
{
    return R"(Options of export (with every option of trace under Input, Model and Weights):
  --stage ID             the stage to draw, one of: embedding, positional_encoding, input, q, k,
                         v, scores, scaled, mask, masked_scores, weights, head_output, concat, output
                         (with a model also its layer and output stages; GPT-2/BERT: rollout, ...)
  --view model           instead of a stage: the Model view's grid, every layer x head of a
                         block's attention weights (--model DIR|FILE|reversal; --block chooses)
  --head H               the head of a per-head stage, counted from 1 as in the studio
  --layer N              a Transformer's layer, counted from 1 (default 1)
  --block B              encoder_self (default; decoder_self for GPT-2) | decoder_self | cross: the
                         attention block of a layer's stage; for embedding/positional_encoding/input the side
                         (1..heads, default 1; the trace JSON counts heads from 0)
  --format F             png | svg | pdf | csv (default: the output's suffix; png for --all).
                         SVG and PDF keep text as text; csv writes the numbers (UTF-8 with BOM)
  --dpi N                PNG resolution, 48..1200 (default 150): the PNG is width*N/96 pixels wide
  --width W, --height H  plot size in pixels at 96 dpi, 50..10000 (default 1200 x 900)
  --output FILE, -o FILE the file to write (one stage); - is stdout (give --format)
  --all                  every stage and head, numbered by position in the trace
                         (01_embedding.png, ..., 04_q_head1.png, ...), each with a .csv
                         (with --format csv only the .csv files)
  --output-dir DIR       where --all writes; created when missing (its parent must exist)
Comparing two inputs (one stage; A is the input above, B one of these):
  --compare TEXT         B is another sentence (or source) with the same settings
  --compare-pe           B is the same sentence with positional encoding switched off
                         (or sinusoidal when A has --pe none)
  --compare-mask MASK    B has another mask: none | causal | padding | causal+padding
                         (one attention block only: a Transformer's encoder takes --mask)
  --compare-seed N       B has another seed: other embeddings, positions and seeded weights
                         The picture shows A, B on one colour scale and A − B on a diverging
                         scale around 0. When B's tokens are A's in another order, B's rows and
                         columns are matched to A's by token before subtracting (by position
                         otherwise; no difference when the shapes differ). Give at most one;
                         not with --all or --format csv. Default size 1800 x 720.
)";
}

std::string exitStatusHelp()
{
    return R"(Exit status (the same for every command):
  0  success
  1  an output could not be written (a missing folder, no permission, a full disk, standard
     output closed), training diverged, or the computation ran out of memory; download: the model
     could not be fetched or written (no network, a name not resolved, a timeout, a server
     error, a file that failed its checksum twice, a full disk, a folder in the way)
  2  bad input: an unknown command, option or value, an impossible configuration, an input
     file that is missing, unreadable or corrupt, a model that cannot be opened, or a run
     refused as too large before it starts; download: no such model or revision (HTTP 404),
     a gated model without an accepted token (401, 403), a model Attention Lab cannot open
  128 + n  stopped by signal n (SIGINT, SIGTERM, SIGHUP) after removing unfinished outputs
  Otherwise one line on standard error says what went wrong ("attention-lab-cli: error: ...").
)";
}

} // namespace attnlab::cli
