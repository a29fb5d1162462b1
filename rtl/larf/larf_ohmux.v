// One-hot multiplexer: q_o is the W-bit field of the entry whose sel_i bit is set (0 when none
// is; sel_i must have at most one bit set). Each output bit is the OR of N AND terms, built as
// a balanced tree (depth log2(N)) instead of an N-deep chain of 2:1 muxes. Used by larf_amt to
// read the chosen CAM entries' fields.
//
// The tree is written a level at a time, whole fields at once: each entry's field masked by its
// select bit, then each level folds its upper half of fields onto its lower half (field j ORed
// with field j + half). A level is one vector operation, which Verilator evaluates a machine
// word at a time, where an OR over N terms per output bit made each output bit an expression
// of N terms in larf_amt's model (larf_lowest says what that cost).
module larf_ohmux #(
  parameter integer N = 200,
  parameter integer W = 10
) (
  input  wire [N-1:0]   sel_i,
  input  wire [N*W-1:0] data_i,  // entry i at [i*W +: W]
  output wire [W-1:0]   q_o
);
  localparam integer L  = $clog2(N);  // levels of the tree
  localparam integer NP = 1 << L;     // fields, padded to a power of two with zeros

  genvar i, k;
  generate
    for (k = 0; k <= L; k = k + 1) begin : g_lv
      wire [(NP>>k)*W-1:0] f;  // the level's fields: field j at [j*W +: W]
      if (k == 0) begin : g_mask
        for (i = 0; i < NP; i = i + 1) begin : g_ent
          if (i < N) begin : g_in
            assign f[i*W +: W] = data_i[i*W +: W] & {W{sel_i[i]}};
          end else begin : g_pad
            assign f[i*W +: W] = {W{1'b0}};
          end
        end
      end else begin : g_fold
        localparam integer H = (NP >> k) * W;  // the bits of this level's fields
        assign f = g_lv[k-1].f[H-1:0] | g_lv[k-1].f[2*H-1:H];
      end
    end
  endgenerate
  assign q_o = g_lv[L].f;
endmodule
