// WarpMan TB dispatch check: the TB-level resource check followed by the warp-level resource
// check of Fig. 13 (Xiang, Yang, Zhou, HPCA 2014, sec. 4.1), for one SM and one TB.
//
// On req_i (while not busy) it compares the SM's free resources with one TB's needs:
//   full TB    free_smem >= tb_smem, free_ctas >= 1, free_warps >= tb_warps and
//              free_regs >= tb_regs                 -> done_o, full_o, warps_o = tb_warps
//   partial TB otherwise, if partial_en_i, no partial TB is pending on the SM (!wlb_valid_i),
//              free_smem >= tb_smem (shared memory stays TB-granular), free_ctas >= 1,
//              free_warps >= 1 and free_regs >= warp_regs (at least one warp fits)
//              -> done_o, partial_o, warps_o = k = min(free_regs / warp_regs, free_warps,
//              tb_warps): the first k warps (in warp-id order) get registers and warp slots;
//              the rest wait in the workload buffer (wm_wlbuf).
//   none       otherwise                            -> done_o alone.
// Full and none are answered after the edge that samples req_i (latency 1). The partial count
// needs the quotient free_regs / warp_regs: a restoring divider produces one quotient bit per
// cycle, TW = $clog2(MAX_TB_WARPS+1) bits (a quotient too large for TW bits saturates to all
// ones, which is >= tb_warps), so a partial answer comes TW edges after the request edge
// (6 for GTX 480). No divider or multiplier sits on a single-cycle path. Outputs are registered;
// done_o is high for one cycle; req_i is ignored while busy_o. C reference:
// csim/hw/warpman/wm_check.c. Requires MAX_TB_WARPS >= 2.
module wm_check #(
  parameter integer REGS         = 32768,  // registers per SM
  parameter integer SMEM         = 49152,  // shared memory bytes per SM
  parameter integer WARP_SLOTS   = 48,     // warp scheduler entries per SM
  parameter integer CTA_SLOTS    = 8,      // CTA slots per SM
  parameter integer MAX_TB_WARPS = 32      // warps per TB
) (
  input  wire                              clk_i,
  input  wire                              rst_ni,
  input  wire                              req_i,
  input  wire                              partial_en_i,
  input  wire                              wlb_valid_i,
  input  wire [$clog2(REGS+1)-1:0]         free_regs_i,
  input  wire [$clog2(SMEM+1)-1:0]         free_smem_i,
  input  wire [$clog2(WARP_SLOTS+1)-1:0]   free_warps_i,
  input  wire [$clog2(CTA_SLOTS+1)-1:0]    free_ctas_i,
  input  wire [$clog2(REGS+1)-1:0]         tb_regs_i,
  input  wire [$clog2(SMEM+1)-1:0]         tb_smem_i,
  input  wire [$clog2(MAX_TB_WARPS+1)-1:0] tb_warps_i,
  input  wire [$clog2(REGS+1)-1:0]         warp_regs_i,
  output wire                              busy_o,
  output wire                              done_o,
  output wire                              full_o,
  output wire                              partial_o,
  output wire [$clog2(MAX_TB_WARPS+1)-1:0] warps_o
);

  localparam integer RW = $clog2(REGS+1);          // register counts
  localparam integer FW = $clog2(WARP_SLOTS+1);    // free warp slots
  localparam integer TW = $clog2(MAX_TB_WARPS+1);  // warps of a TB = quotient bits
  localparam integer DW = RW + TW - 1;             // divisor shifted to the top quotient bit
  localparam integer NW = $clog2(TW);              // quotient bit counter
  localparam integer EW = ((FW > TW) ? FW : TW) + 1;  // common width of warp counts
  localparam integer LASTBIT = TW - 1;
  localparam [NW-1:0] CNT_LAST = LASTBIT[NW-1:0];
  localparam [NW-1:0] CNT_ONE  = 1;

  reg          busy_q  /*verilator public_flat_rd*/;
  reg [RW-1:0] rem_q   /*verilator public_flat_rd*/;
  reg [DW-1:0] dsh_q   /*verilator public_flat_rd*/;
  reg [TW-2:0] quo_q   /*verilator public_flat_rd*/;  // quotient bits so far (the top one
                                                 // leaves the register as it is made)
  reg [TW-1:0] lim_q   /*verilator public_flat_rd*/;
  reg [NW-1:0] cnt_q   /*verilator public_flat_rd*/;
  reg          done_q;
  reg          full_q;
  reg          partial_q;
  reg [TW-1:0] warps_q;

  reg          busy_d;
  reg [RW-1:0] rem_d;
  reg [DW-1:0] dsh_d;
  reg [TW-2:0] quo_d;
  reg [TW-1:0] lim_d;
  reg [NW-1:0] cnt_d;
  reg          done_d;
  reg          full_d;
  reg          partial_d;
  reg [TW-1:0] warps_d;

  // TB-level and warp-level checks (Fig. 13)
  wire [EW-1:0] free_warps_x = {{(EW-FW){1'b0}}, free_warps_i};
  wire [EW-1:0] tb_warps_x   = {{(EW-TW){1'b0}}, tb_warps_i};
  wire          smem_ok      = free_smem_i >= tb_smem_i;
  wire          cta_ok       = |free_ctas_i;
  wire          full_ok      = smem_ok & cta_ok & (free_warps_x >= tb_warps_x) &
                               (free_regs_i >= tb_regs_i);
  wire          part_ok      = partial_en_i & ~wlb_valid_i & smem_ok & cta_ok &
                               (|free_warps_i) & (|tb_warps_i) & (free_regs_i >= warp_regs_i);
  // min(free warps, TB warps) fits TW bits: it is at most tb_warps
  wire [TW-1:0] lim          = (free_warps_x < tb_warps_x) ? free_warps_x[TW-1:0] : tb_warps_i;

  // one restoring-division step
  wire [RW:0]   diff         = {1'b0, rem_q} - {1'b0, dsh_q[RW-1:0]};
  wire          ge           = ~(|dsh_q[DW-1:RW]) & ~diff[RW];
  wire [RW-1:0] rem_sub      = diff[RW-1:0];
  wire [TW-1:0] quo_next     = {quo_q, ge};
  wire [TW-1:0] k            = (quo_next < lim_q) ? quo_next : lim_q;

  always @* begin
    busy_d    = busy_q;
    rem_d     = rem_q;
    dsh_d     = dsh_q;
    quo_d     = quo_q;
    lim_d     = lim_q;
    cnt_d     = cnt_q;
    done_d    = 1'b0;
    full_d    = 1'b0;
    partial_d = 1'b0;
    warps_d   = {TW{1'b0}};
    if (busy_q) begin
      rem_d = ge ? rem_sub : rem_q;
      dsh_d = {1'b0, dsh_q[DW-1:1]};
      quo_d = quo_next[TW-2:0];
      if (cnt_q == {NW{1'b0}}) begin
        busy_d    = 1'b0;
        done_d    = 1'b1;
        partial_d = 1'b1;
        warps_d   = k;
      end else begin
        cnt_d = cnt_q - CNT_ONE;
      end
    end else if (req_i) begin
      if (full_ok) begin
        done_d  = 1'b1;
        full_d  = 1'b1;
        warps_d = tb_warps_i;
      end else if (!part_ok) begin
        done_d = 1'b1;
      end else begin
        busy_d = 1'b1;
        rem_d  = free_regs_i;
        dsh_d  = {warp_regs_i, {(TW-1){1'b0}}};
        quo_d  = {(TW-1){1'b0}};
        lim_d  = lim;
        cnt_d  = CNT_LAST;
      end
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q    <= 1'b0;
      rem_q     <= {RW{1'b0}};
      dsh_q     <= {DW{1'b0}};
      quo_q     <= {(TW-1){1'b0}};
      lim_q     <= {TW{1'b0}};
      cnt_q     <= {NW{1'b0}};
      done_q    <= 1'b0;
      full_q    <= 1'b0;
      partial_q <= 1'b0;
      warps_q   <= {TW{1'b0}};
    end else begin
      busy_q    <= busy_d;
      rem_q     <= rem_d;
      dsh_q     <= dsh_d;
      quo_q     <= quo_d;
      lim_q     <= lim_d;
      cnt_q     <= cnt_d;
      done_q    <= done_d;
      full_q    <= full_d;
      partial_q <= partial_d;
      warps_q   <= warps_d;
    end
  end

  assign busy_o    = busy_q;
  assign done_o    = done_q;
  assign full_o    = full_q;
  assign partial_o = partial_q;
  assign warps_o   = warps_q;

endmodule
