// FineReg register index decoder (Oh, Koo, Kim, Ro, Yoon, MICRO 2018, sec. V-C, Fig. 10).
//
// Turns the live-register bit vector of one warp (from fr_lrcache) into the indices of its
// live registers, lowest first, one per cycle: the RMU sends them to the ACRF (through the
// arbitrator) and fr_pcrf chains them in the PCRF.
//   ld_i    loads ld_vec_i and ld_warp_i; cnt_o = its population count (the warp's live
//           registers, which the policy adds up into the CTA's need for fr_ptrtab's fit_o).
//   valid_o, idx_o, last_o  (after the edge) the lowest live register not yet taken, and
//           whether it is the last; idx_o is all ones when none is left.
//   pop_i   the index shown (before this edge) was taken: it is cleared and the next one
//           shows after the edge, so a vector of n live registers is drained in n cycles.
// ld_i wins over pop_i. REGS must be a power of two >= 4. C reference:
// csim/hw/finereg/fr_idxdec.c.
module fr_idxdec #(
  parameter integer REGS  = 64,  // bits per live-register vector
  parameter integer WARPS = 32   // warps per CTA
) (
  input  wire                          clk_i,
  input  wire                          rst_ni,
  input  wire                          ld_i,
  input  wire [REGS-1:0]               ld_vec_i,
  input  wire [$clog2(WARPS)-1:0]      ld_warp_i,
  input  wire                          pop_i,
  output wire                          valid_o,
  output wire [$clog2(REGS)-1:0]       idx_o,
  output wire                          last_o,
  output wire [$clog2(WARPS)-1:0]      warp_o,
  output wire [$clog2(REGS+1)-1:0]     cnt_o
);

  localparam integer IW = $clog2(REGS);
  localparam integer CW = $clog2(REGS + 1);
  localparam integer WW = $clog2(WARPS);

  reg [REGS-1:0] rem_q  /*verilator public_flat_rd*/;
  reg [WW-1:0]   warp_q /*verilator public_flat_rd*/;
  reg [CW-1:0]   cnt_q  /*verilator public_flat_rd*/;

  wire          any;
  wire [IW-1:0] low;
  fr_ffs #(.N(REGS)) u_ffs (.v_i(rem_q), .found_o(any), .idx_o(low));

  // rem_q without its lowest set bit
`ifdef BROKEN_FOR_TEST
  // Test-only fault (built as "fr_idxdec-broken"): taking register 31 also drops register 32.
  localparam [IW-1:0] R31 = {{(IW-5){1'b0}}, 5'b11111};
  wire [REGS-1:0] taken = ({{(REGS-1){1'b0}}, 1'b1} << low) |
                          ({{(REGS-1){1'b0}}, any && low == R31} << 32);
`else
  wire [REGS-1:0] taken = {{(REGS-1){1'b0}}, 1'b1} << low;
`endif
  wire [REGS-1:0] rest  = rem_q & ~taken;

  // population count of the vector being loaded: a binary adder tree (log2(REGS) levels);
  // node G of level l >= 1 starts at (G - REGS) * CW in t, its children are the level below
  function integer off;
    input integer l;
    begin
      off = 2 * REGS - ((2 * REGS) >> l);
    end
  endfunction
  wire [(REGS-1)*CW-1:0] t /*verilator split_var*/;
  genvar l, j;
  generate
    for (l = 1; l <= IW; l = l + 1) begin : g_lv
      for (j = 0; j < (REGS >> l); j = j + 1) begin : g_nd
        localparam integer G  = off(l) + j;
        localparam integer CL = off(l - 1) + 2 * j;
        if (l == 1) begin : g_leaf
          assign t[(G-REGS)*CW +: CW] = {{(CW-1){1'b0}}, ld_vec_i[2*j]} +
                                        {{(CW-1){1'b0}}, ld_vec_i[2*j+1]};
        end else begin : g_inner
          assign t[(G-REGS)*CW +: CW] = t[(CL-REGS)*CW +: CW] + t[(CL+1-REGS)*CW +: CW];
        end
      end
    end
  endgenerate
  wire [CW-1:0] pop = t[(REGS-2)*CW +: CW];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rem_q  <= {REGS{1'b0}};
      warp_q <= {WW{1'b0}};
      cnt_q  <= {CW{1'b0}};
    end else if (ld_i) begin
      rem_q  <= ld_vec_i;
      warp_q <= ld_warp_i;
      cnt_q  <= pop;
    end else if (pop_i) begin
      rem_q  <= rest;
    end
  end

  assign valid_o = any;
  assign idx_o   = low;
  assign last_o  = any && (rest == {REGS{1'b0}});
  assign warp_o  = warp_q;
  assign cnt_o   = cnt_q;

endmodule
