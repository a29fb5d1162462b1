// Register sharing, the per-SM state and lock logic (Jatala, Anantpur, Karkare: "The More We
// Share, The More We Have", sec. 4-6, Fig. 4 and 5; the extended register and scratchpad
// sharing paper, sec. III-A and V). T = CTA_SLOTS, W = WARP_SLOTS, NL = W/2 warp-pair locks,
// TW = clog2(T+1), LW = clog2(W+1), HW = clog2(NL+1), RW = clog2(REGS).
// Storage, the paper's 273 bits for Tesla C2050:
//   mode_q     1      the SM runs TBs in sharing mode
//   partner_q  T*TW   sharer CTA slot of each CTA slot; a value >= T means unshared (the
//                     paper's -1; T itself at reset)
//   sharing_q  W      warp slot belongs to a shared TB (comparator b reads it)
//   owner_q    W      warp slot is an owner warp (OWF priority)
//   lock_q     NL*LW  one lock per warp pair: the warp slot that holds the pair's shared
//                     registers, all ones when free
// and, beyond the paper's count:
//   held_q     T*HW   per CTA slot, the pair locks its warps hold. The deadlock rule (a warp of
//                     TBi may lock only if no warp of its partner TBj holds a lock, Fig. 5)
//                     needs "does TBj hold any lock" in one cycle; scanning NL entries for
//                     warps of TBj would need a warp->TB map the paper does not store either.
//   thr_q      RW     floor(Rw*t), the per-thread register number where shared registers
//                     start: a per-kernel configuration register (comparator c reads it).
// Ports, all sampled at the same edge and acting independently:
//   cfg_i     mode_q <= cfg_mode_i, thr_q <= cfg_thr_i (kernel start)
//   tb_wr_i   partner field tb_i <= tb_partner_i (TB launch, ownership transfer)
//   warp_wr_i sharing/owner bits of every warp slot set in warp_mask_i
//   req_i     warp req_warp_i of CTA slot req_tb_i asks for pair lock req_lock_i to use
//             register req_reg_i (the highest its instruction names). Granted (the entry
//             takes the warp slot, held of req_tb_i counts up) iff mode_q, the warp is shared
//             (b), req_reg_i >= thr_q (c: the paper numbers registers from 1 and calls
//             RegNo > Rw*t shared; numbered from 0 that is >= thr), the entry is free, and
//             the partner p of req_tb_i is unshared (p >= T) or holds no lock. A re-request
//             by the holder finds the entry taken and changes nothing.
//   rel_i     warp rel_warp_i of CTA slot rel_tb_i finished: if it holds entry rel_lock_i,
//             the entry frees and held of rel_tb_i counts down.
// A grant needs its entry free and a release needs its entry held, so they never meet on one
// entry. Every condition reads the state before the edge. An index out of range (>= T, >= W,
// >= NL; possible when those are not powers of two) makes its port's action a no-op. Held
// counters saturate at both ends (a grant on an all-ones counter or a release on a zero one
// leaves it), which a dispatcher that names the right TB never reaches: at most NL locks are
// held. Outputs are the flops, and prio_o, the Owner-Warp-First class of each warp slot
// (2 bits: 0 owner, 1 unshared, 2 non-owner; the scheduler issues lower classes first).
// C reference: csim/hw/regshare/rs_share.c. Requires CTA_SLOTS >= 2, 4 <= WARP_SLOTS <= 64,
// REGS >= 2.
module rs_share #(
  parameter integer CTA_SLOTS  = 8,    // T: CTA slots per SM
  parameter integer WARP_SLOTS = 48,   // W: warp slots per SM
  parameter integer REGS       = 256   // architectural register numbers per thread
) (
  input  wire                                                     clk_i,
  input  wire                                                     rst_ni,
  input  wire                                                     cfg_i,
  input  wire                                                     cfg_mode_i,
  input  wire [$clog2(REGS)-1:0]                                  cfg_thr_i,
  input  wire                                                     tb_wr_i,
  input  wire [$clog2(CTA_SLOTS)-1:0]                             tb_i,
  input  wire [$clog2(CTA_SLOTS+1)-1:0]                           tb_partner_i,
  input  wire                                                     warp_wr_i,
  input  wire [WARP_SLOTS-1:0]                                    warp_mask_i,
  input  wire                                                     warp_sharing_i,
  input  wire                                                     warp_owner_i,
  input  wire                                                     req_i,
  input  wire [$clog2(WARP_SLOTS)-1:0]                            req_warp_i,
  input  wire [$clog2(CTA_SLOTS)-1:0]                             req_tb_i,
  input  wire [$clog2(WARP_SLOTS/2)-1:0]                          req_lock_i,
  input  wire [$clog2(REGS)-1:0]                                  req_reg_i,
  input  wire                                                     rel_i,
  input  wire [$clog2(WARP_SLOTS)-1:0]                            rel_warp_i,
  input  wire [$clog2(CTA_SLOTS)-1:0]                             rel_tb_i,
  input  wire [$clog2(WARP_SLOTS/2)-1:0]                          rel_lock_i,
  output wire                                                     mode_o,
  output wire [$clog2(REGS)-1:0]                                  thr_o,
  output wire [CTA_SLOTS*$clog2(CTA_SLOTS+1)-1:0]                 partner_o,
  output wire [WARP_SLOTS-1:0]                                    sharing_o,
  output wire [WARP_SLOTS-1:0]                                    owner_o,
  output wire [CTA_SLOTS*$clog2(WARP_SLOTS/2+1)-1:0]              held_o,
  output wire [(WARP_SLOTS/2)*$clog2(WARP_SLOTS+1)-1:0]           lock_o,
  output wire [2*WARP_SLOTS-1:0]                                  prio_o
);

  localparam integer T   = CTA_SLOTS;
  localparam integer W   = WARP_SLOTS;
  localparam integer NL  = W / 2;             // warp-pair locks
  localparam integer RW  = $clog2(REGS);      // register number
  localparam integer TW  = $clog2(T + 1);     // partner id, T = unshared
  localparam integer WW  = $clog2(W);         // warp slot index
  // W+1 so that the free code (all ones) is no warp slot even when W is a power of two
  localparam integer LW  = $clog2(W + 1);
  localparam integer HW  = $clog2(NL + 1);    // held counter: up to NL locks
  localparam [TW-1:0] UNSHARED = T[TW-1:0];
  localparam [LW-1:0] FREE     = {LW{1'b1}};
  localparam [HW-1:0] HELD_ONE = 1;
  localparam [T-1:0]  T_ONE    = 1;
  localparam [W-1:0]  W_ONE    = 1;
  localparam [NL-1:0] NL_ONE   = 1;

  reg              mode_q    /*verilator public_flat_rd*/;
  reg [T*TW-1:0]   partner_q /*verilator public_flat_rd*/;
  reg [W-1:0]      sharing_q /*verilator public_flat_rd*/;
  reg [W-1:0]      owner_q   /*verilator public_flat_rd*/;
  reg [NL*LW-1:0]  lock_q    /*verilator public_flat_rd*/;
  reg [T*HW-1:0]   held_q    /*verilator public_flat_rd*/;
  reg [RW-1:0]     thr_q     /*verilator public_flat_rd*/;

  reg              mode_d;
  reg [T*TW-1:0]   partner_d;
  reg [W-1:0]      sharing_d;
  reg [W-1:0]      owner_d;
  reg [NL*LW-1:0]  lock_d;
  reg [T*HW-1:0]   held_d;
  reg [RW-1:0]     thr_d;

  // One-hot decodes: a shift past the vector's width gives zero, which is what turns an
  // out-of-range index into a no-op without a separate range compare.
  wire [T-1:0]  tb_oh       = T_ONE << tb_i;
  wire [T-1:0]  req_tb_oh   = T_ONE << req_tb_i;
  wire [T-1:0]  rel_tb_oh   = T_ONE << rel_tb_i;
  wire [W-1:0]  req_warp_oh = W_ONE << req_warp_i;
  wire [W-1:0]  rel_warp_oh = W_ONE << rel_warp_i;
  wire [NL-1:0] req_lock_oh = NL_ONE << req_lock_i;
  wire [NL-1:0] rel_lock_oh = NL_ONE << rel_lock_i;

  reg [LW-1:0]  req_warp_x;    // warp slot ids widened to a lock entry
  reg [LW-1:0]  rel_warp_x;
  reg [NL-1:0]  lock_free;     // per entry: free
  reg [NL-1:0]  lock_rel;      // per entry: held by rel_warp_i
  reg [TW-1:0]  req_partner;   // partner field of req_tb_i
  reg [T-1:0]   held_any;      // per CTA slot: holds at least one lock
  reg [2*W-1:0] prio;
  integer i;

  always @* begin
    req_warp_x             = {LW{1'b0}};
    req_warp_x[WW-1:0]     = req_warp_i;
    rel_warp_x             = {LW{1'b0}};
    rel_warp_x[WW-1:0]     = rel_warp_i;
    for (i = 0; i < NL; i = i + 1) begin
      lock_free[i] = lock_q[i*LW +: LW] == FREE;
      lock_rel[i]  = lock_q[i*LW +: LW] == rel_warp_x;
    end
    req_partner = {TW{1'b0}};
    for (i = 0; i < T; i = i + 1) begin
      if (req_tb_oh[i]) req_partner = partner_q[i*TW +: TW];
      held_any[i] = |held_q[i*HW +: HW];
    end
    for (i = 0; i < W; i = i + 1) begin
      prio[2*i]   = ~sharing_q[i];
      prio[2*i+1] = sharing_q[i] & ~owner_q[i];
    end
  end

  // a partner id >= T decodes to no slot: unshared, never busy
  wire [T-1:0] partner_oh   = T_ONE << req_partner;
  wire         partner_busy = |(partner_oh & held_any);
  wire         grant        = req_i & mode_q & (|req_tb_oh) & (|(req_warp_oh & sharing_q)) &
                              (req_reg_i >= thr_q) & (|(req_lock_oh & lock_free)) &
                              ~partner_busy;
  // rel_warp_i >= W could equal the free code when W is not a power of two: range-gated
  wire         freed        = rel_i & (|rel_tb_oh) & (|rel_warp_oh) &
                              (|(rel_lock_oh & lock_rel));

  always @* begin
    mode_d    = mode_q;
    thr_d     = thr_q;
    partner_d = partner_q;
    sharing_d = sharing_q;
    owner_d   = owner_q;
    lock_d    = lock_q;
    held_d    = held_q;
    if (cfg_i) begin
      mode_d = cfg_mode_i;
      thr_d  = cfg_thr_i;
    end
    for (i = 0; i < T; i = i + 1) begin
      if (tb_wr_i && tb_oh[i]) partner_d[i*TW +: TW] = tb_partner_i;
      if (grant && req_tb_oh[i] && !(freed && rel_tb_oh[i])) begin
        if (held_q[i*HW +: HW] != {HW{1'b1}})
          held_d[i*HW +: HW] = held_q[i*HW +: HW] + HELD_ONE;
      end else if (freed && rel_tb_oh[i] && !(grant && req_tb_oh[i])) begin
        if (held_any[i]) held_d[i*HW +: HW] = held_q[i*HW +: HW] - HELD_ONE;
      end
    end
    if (warp_wr_i) begin
      sharing_d = (sharing_q & ~warp_mask_i) | (warp_mask_i & {W{warp_sharing_i}});
      owner_d   = (owner_q & ~warp_mask_i) | (warp_mask_i & {W{warp_owner_i}});
    end
    for (i = 0; i < NL; i = i + 1) begin
      if (grant && req_lock_oh[i]) lock_d[i*LW +: LW] = req_warp_x;
      if (freed && rel_lock_oh[i]) lock_d[i*LW +: LW] = FREE;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q    <= 1'b0;
      thr_q     <= {RW{1'b0}};
      partner_q <= {T{UNSHARED}};
      sharing_q <= {W{1'b0}};
      owner_q   <= {W{1'b0}};
      lock_q    <= {NL{FREE}};
      held_q    <= {(T*HW){1'b0}};
    end else begin
      mode_q    <= mode_d;
      thr_q     <= thr_d;
      partner_q <= partner_d;
      sharing_q <= sharing_d;
      owner_q   <= owner_d;
      lock_q    <= lock_d;
      held_q    <= held_d;
    end
  end

  assign mode_o    = mode_q;
  assign thr_o     = thr_q;
  assign partner_o = partner_q;
  assign sharing_o = sharing_q;
  assign owner_o   = owner_q;
  assign held_o    = held_q;
  assign lock_o    = lock_q;
  assign prio_o    = prio;

endmodule
