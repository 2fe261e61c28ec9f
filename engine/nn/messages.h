#pragma once
/// The refusals of nn/ (attention weights read from a file, masks, the Transformer's layers and
/// norms), one line each: a code and the English text, %1 … %9 for the arguments (core/message.h,
/// "Message tables"). Quoted arguments are user input escaped by printable() (text/printable.h);
/// a shape argument is "rows x cols".

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kNnMessages[] = {
    // attention weights from a safetensors file (nn/weights.h)
    {"weights_separate_qkv", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1': separate q/k/v projections (kdim or vdim differing from embed_dim) are not supported; expected one 'in_proj_weight' [3d, d]")},
    {"weights_none", QT_TRANSLATE_NOOP("attnlab::Messages", "no attention weights found: expected a tensor 'in_proj_weight' [3d, d] (an nn.MultiheadAttention state dict, optionally under a prefix such as 'self_attn.')")},
    {"weights_several_blocks", QT_TRANSLATE_NOOP("attnlab::Messages", "the file holds several attention blocks (prefixes %1); choose one")},
    {"weights_missing_in_proj", QT_TRANSLATE_NOOP("attnlab::Messages", "missing tensor '%1' [3d, d]")},
    {"weights_in_proj_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' has shape %2 but must be [3d, d]")},
    {"weights_d_model", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' has d_model %2; at most %3 is supported")},
    {"weights_missing_out_proj", QT_TRANSLATE_NOOP("attnlab::Messages", "missing tensor '%1' [%2, %3]")},
    {"weights_not_finite", QT_TRANSLATE_NOOP("attnlab::Messages", "the attention weights hold non-finite values (inf or NaN)")},
    {"biases_not_finite", QT_TRANSLATE_NOOP("attnlab::Messages", "the attention biases hold non-finite values (inf or NaN)")},
    {"weights_num_heads", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata num_heads is '%1' but must be a whole number from 1 to %2 that divides d_model (%3)")},
    // masks (nn/mask.h); %1 names the mask as PyTorch does ("tgt_mask", "key_padding_mask")
    {"mask_matrix_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 is %2 x %3 but must be %4 x %5 (queries x keys)")},
    {"mask_padding_size", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 has %2 entries but must have %3 (one per key)")},
    {"mask_text_character", QT_TRANSLATE_NOOP("attnlab::Messages", "mask line %1, byte %2: unexpected %3 (only 0, 1, spaces and commas are allowed)")},
    {"mask_text_rows", QT_TRANSLATE_NOOP("attnlab::Messages", "the mask has more than %1 rows")},
    {"mask_text_empty", QT_TRANSLATE_NOOP("attnlab::Messages", "the mask is empty: it needs n lines of n values 0 or 1")},
    {"mask_text_not_square", QT_TRANSLATE_NOOP("attnlab::Messages", "mask row %1 has %2 values but the mask has %3 rows: it must be square")},
    // norms and attention projections (nn/blocks.h, nn/transformer.h); %1 names a module ("norm1")
    {"norm_width", QT_TRANSLATE_NOOP("attnlab::Messages", "a norm over %1 features needs γ of %1 values and β of none or %1")},
    {"norm_eps", QT_TRANSLATE_NOOP("attnlab::Messages", "eps (%1) must be a positive number")},
    {"kv_heads_divide", QT_TRANSLATE_NOOP("attnlab::Messages", "kv_heads (%1) must divide heads (%2)")},
    {"projection_widths", QT_TRANSLATE_NOOP("attnlab::Messages", "the projections must be heads·head_dim and kv_heads·head_dim wide")},
    {"layer_norm_width", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 has %2 weights and %3 biases but d_model is %4")},
    {"the_layer_norm_width", QT_TRANSLATE_NOOP("attnlab::Messages", "the LayerNorm has %1 weights and %2 biases but d_model is %3")},
    {"linear1_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "linear1 is %1 with %2 biases but must be %3 (d_ff x d_model) with %4")},
    {"linear2_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "linear2 is %1 with %2 biases but must be %3 (d_model x d_ff) with %4")},
    {"attention_projection_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "%1.in_proj_weight is %2 and out_proj.weight %3 but must be %4 and %5 (with biases of %6 and %7) for d_model %7")},
    {"layer_cells", QT_TRANSLATE_NOOP("attnlab::Messages", "the layers' attention matrices hold %1 cells in all, more than %2: use fewer tokens, heads or layers")},
    {"residual_shapes", QT_TRANSLATE_NOOP("attnlab::Messages", "a residual adds two matrices of one shape, not %1 and %2")},
    {"encoder_layers_weights", QT_TRANSLATE_NOOP("attnlab::Messages", "the encoder stack has %1 layers of weights but encoder_layers is %2 (at least 1)")},
    {"decoder_layers_weights", QT_TRANSLATE_NOOP("attnlab::Messages", "the decoder stack has %1 layers of weights but decoder_layers is %2 (at least 1)")},
    {"transformer_layers_weights", QT_TRANSLATE_NOOP("attnlab::Messages", "the weights hold %1 encoder and %2 decoder layers but the options ask for %3 and %4")},
    {"final_norms_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "final_norms is on but the weights have no final norm (encoder.norm, decoder.norm)")},
    {"tokens_rows", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 has %2 tokens but %3 rows")},
};

/// The line of kNnMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& nnMessage(std::string_view code)
{
    return messageIn(kNnMessages, code);
}

} // namespace attnlab
