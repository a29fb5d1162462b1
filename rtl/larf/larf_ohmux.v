// One-hot multiplexer: q_o is the W-bit field of the entry whose sel_i bit is set (0 when none
// is; sel_i must have at most one bit set). Each output bit is the OR of N AND terms, which
// Yosys builds as a balanced tree (depth log2(N)) instead of an N-deep chain of 2:1 muxes.
// Used by larf_amt to read the chosen CAM entries' fields.
module larf_ohmux #(
  parameter integer N = 200,
  parameter integer W = 10
) (
  input  wire [N-1:0]   sel_i,
  input  wire [N*W-1:0] data_i,  // entry i at [i*W +: W]
  output wire [W-1:0]   q_o
);
  genvar b, i;
  generate
    for (b = 0; b < W; b = b + 1) begin : g_bit
      wire [N-1:0] term;
      for (i = 0; i < N; i = i + 1) begin : g_ent
        assign term[i] = sel_i[i] & data_i[i*W+b];
      end
      assign q_o[b] = |term;
    end
  endgenerate
endmodule
