// WarpMan single-entry workload buffer (Xiang, Yang, Zhou, HPCA 2014, sec. 4.2, Fig. 14).
//
// Holds the one partially dispatched TB of an SM: its CTA slot (P_TBId), its TB index in the
// grid (L_TBId), the first and the last of its warps still waiting for registers and a warp
// slot (start_wid, end_wid, inclusive) and a valid bit: 3+26+5+5+1 = 40 flops for GTX 480.
//   wr_i   loads an entry (a partial TB was dispatched) and sets valid;
//   adv_i  says warp start_wid was issued: start_wid increments, or, if it was end_wid (the
//          last waiting warp), the entry invalidates;
//   clr_i  invalidates (kernel end, SM flush).
// Priority clr_i > wr_i > adv_i; adv_i without a valid entry does nothing. Outputs are the flops
// (last_o = valid and start_wid == end_wid: the next issue empties the buffer).
// Requires CTA_SLOTS, GRID_TBS, MAX_TB_WARPS >= 2. C reference: csim/hw/warpman/wm_wlbuf.c.
module wm_wlbuf #(
  parameter integer CTA_SLOTS    = 8,         // CTA slots per SM -> P_TBId width
  parameter integer GRID_TBS     = 67108864,  // TBs per grid, 1024x1024x64 -> L_TBId width
  parameter integer MAX_TB_WARPS = 32         // warps per TB -> warp-id width
) (
  input  wire                            clk_i,
  input  wire                            rst_ni,
  input  wire                            clr_i,
  input  wire                            wr_i,
  input  wire [$clog2(CTA_SLOTS)-1:0]    wr_ptb_i,
  input  wire [$clog2(GRID_TBS)-1:0]     wr_ltb_i,
  input  wire [$clog2(MAX_TB_WARPS)-1:0] wr_start_i,
  input  wire [$clog2(MAX_TB_WARPS)-1:0] wr_end_i,
  input  wire                            adv_i,
  output wire                            valid_o,
  output wire [$clog2(CTA_SLOTS)-1:0]    ptb_o,
  output wire [$clog2(GRID_TBS)-1:0]     ltb_o,
  output wire [$clog2(MAX_TB_WARPS)-1:0] start_wid_o,
  output wire [$clog2(MAX_TB_WARPS)-1:0] end_wid_o,
  output wire                            last_o
);

  localparam integer PW = $clog2(CTA_SLOTS);
  localparam integer LW = $clog2(GRID_TBS);
  localparam integer WW = $clog2(MAX_TB_WARPS);
  localparam [WW-1:0] WID_ONE = 1;

  reg          valid_q /*verilator public_flat_rd*/;
  reg [PW-1:0] ptb_q   /*verilator public_flat_rd*/;
  reg [LW-1:0] ltb_q   /*verilator public_flat_rd*/;
  reg [WW-1:0] start_q /*verilator public_flat_rd*/;
  reg [WW-1:0] end_q   /*verilator public_flat_rd*/;

  reg          valid_d;
  reg [PW-1:0] ptb_d;
  reg [LW-1:0] ltb_d;
  reg [WW-1:0] start_d;
  reg [WW-1:0] end_d;

  wire last = valid_q & (start_q == end_q);

  always @* begin
    valid_d = valid_q;
    ptb_d   = ptb_q;
    ltb_d   = ltb_q;
    start_d = start_q;
    end_d   = end_q;
    if (clr_i) begin
      valid_d = 1'b0;
    end else if (wr_i) begin
      valid_d = 1'b1;
      ptb_d   = wr_ptb_i;
      ltb_d   = wr_ltb_i;
      start_d = wr_start_i;
      end_d   = wr_end_i;
    end else if (adv_i && valid_q) begin
      if (last) begin
        valid_d = 1'b0;
      end else begin
        start_d = start_q + WID_ONE;
      end
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      ptb_q   <= {PW{1'b0}};
      ltb_q   <= {LW{1'b0}};
      start_q <= {WW{1'b0}};
      end_q   <= {WW{1'b0}};
    end else begin
      valid_q <= valid_d;
      ptb_q   <= ptb_d;
      ltb_q   <= ltb_d;
      start_q <= start_d;
      end_q   <= end_d;
    end
  end

  assign valid_o     = valid_q;
  assign ptb_o       = ptb_q;
`ifdef BROKEN_FOR_TEST
  // Test-only fault (hw.mk builds it as the "wm_wlbuf-broken" variant): flip L_TBId bit 0
  // when the entry's L_TBId ends in 0xF and warp 7 is next. Lockstep must catch it.
  localparam [WW-1:0] WID_SEVEN = 7;
  assign ltb_o       = ltb_q ^ {{(LW-1){1'b0}}, valid_q && (ltb_q[3:0] == 4'hf) &&
                                                (start_q == WID_SEVEN)};
`else
  assign ltb_o       = ltb_q;
`endif
  assign start_wid_o = start_q;
  assign end_wid_o   = end_q;
  assign last_o      = last;

endmodule
