// w-merge slot of the locality-aware register file (Jeon et al., IEEE CAL 2019, sec. 2.2, 3):
// reconstructs a warp register whose lanes sit, shifted, in one or two registers already in
// the register file, with bit-level SHIFTs and an OR:
//   data = ((a_i >> 32*shift_a_i) & lanes [0, split_i)) | ((b_i << 32*shift_b_i) & lanes
//          [split_i, cnt_i]);  lanes above cnt_i are 0.
// A single shifted source (the table's "shift" answer) is split_i = cnt_i + 1. The result is
// registered: valid_o and data_o appear in the out of the go_i edge (latency 1); valid_o drops
// on the next edge without go_i, data_o holds. C reference: csim/hw/larf/larf_wmerge.c.
module larf_wmerge #(
  parameter integer LANES = 32  // threads per warp
) (
  input  wire                         clk_i,
  input  wire                         rst_ni,
  input  wire                         go_i,
  input  wire [LANES*32-1:0]          a_i,
  input  wire [LANES*32-1:0]          b_i,
  input  wire [$clog2(LANES)-1:0]     shift_a_i,
  input  wire [$clog2(LANES)-1:0]     shift_b_i,
  input  wire [$clog2(LANES):0]       split_i,
  input  wire [$clog2(LANES)-1:0]     cnt_i,
  output wire                         valid_o,
  output wire [LANES*32-1:0]          data_o
);

  localparam integer W  = LANES * 32;
  localparam integer LW = $clog2(LANES);

  reg         valid_q /*verilator public_flat_rd*/;
  reg [W-1:0] data_q  /*verilator public_flat_rd*/;

  wire [W-1:0] sa = a_i >> {shift_a_i, 5'd0};
  wire [W-1:0] sb = b_i << {shift_b_i, 5'd0};
  wire [W-1:0] mask_a, mask_b;
  wire [LW:0]  ncnt = {1'b0, cnt_i} + {{LW{1'b0}}, 1'b1};  // active lanes
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : lane
      localparam [LW:0] L = l;
      assign mask_a[l*32 +: 32] = {32{L < split_i}};
      assign mask_b[l*32 +: 32] = {32{(L >= split_i) && (L < ncnt)}};
    end
  endgenerate
  wire [W-1:0] merged = (sa & mask_a) | (sb & mask_b);

`ifdef BROKEN_FOR_TEST
  // Test-only fault (hw.mk builds it as "larf_wmerge-broken"): a merge whose A shift is 3 and
  // which takes more than 5 lanes from A flips bit 0 of lane 0. Lockstep must catch it.
  wire [W-1:0] data_d = merged ^ {{(W-1){1'b0}}, (shift_a_i == 3) && (split_i > 5)};
`else
  wire [W-1:0] data_d = merged;
`endif

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      data_q  <= {W{1'b0}};
    end else begin
      valid_q <= go_i;
      if (go_i) data_q <= data_d;
    end
  end

  assign valid_o = valid_q;
  assign data_o  = data_q;

endmodule
