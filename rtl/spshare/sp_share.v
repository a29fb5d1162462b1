// Scratchpad sharing (Jatala, Anantpur, Karkare, sec. III-B, Fig. 4, and sec. V): one SM's
// sharing state and the check of a scratchpad access. The two TBs of a shared pair get
// (1+t)*Rtb bytes between them: t*Rtb private bytes each, and (1-t)*Rtb shared bytes that the
// first of the two to touch them owns until it finishes, while the other TB's threads wait at
// their first access there.
// Storage, as sec. V counts it: the SM's sharing-mode bit; per CTA slot the slot of its partner
// (T meaning unshared, the paper's -1, hence clog2(T+1) bits); per warp slot an owner bit (for
// Owner Warp First, sec. IV-A); per TB pair a lock holding the CTA slot of the TB that owns the
// shared region: 1 + T*clog2(T+1) + W + floor(T/2)*clog2(T) = 93 bits for T = 8, W = 48. Beyond
// the paper's count: a valid bit per lock, because a clog2(T)-bit slot id has no spare code for
// "nobody" when T is a power of two, and the private size t*Rtb that comparator (c) needs, which
// the kernel sets (clog2(SMEM+1) bits).
//   cfg_i      kernel start: the SM's sharing mode and the private size t*Rtb in bytes;
//   tb_wr_i    CTA slot tb_i was launched: its partner's slot, or >= T when it is unshared;
//   warp_wr_i  the warp slots in warp_mask_i become owner (warp_owner_i) or non-owner warps;
//   req_i      a thread of CTA slot req_tb_i accesses offset req_addr_i of its TB's scratchpad
//              (the highest offset its instruction touches). In sharing mode, for a TB with a
//              partner (comparator b) at an offset past its private part (comparator c), the
//              TB takes the pair's lock req_lock_i if the lock is free. The access may go
//              ahead when it needs no lock, or when after the edge lock req_lock_i is valid
//              and holds req_tb_i; otherwise the thread retries (busy-waits) in a later cycle.
//   rel_i      CTA slot rel_tb_i finished: it frees lock rel_lock_i if it holds it (the
//              partner, waiting, then takes it on its next request).
// The ports act together; each reads the flops before the edge, so a grant and a release never
// meet in one lock (a grant needs it free, a release held). An index out of range (a CTA slot
// >= T, a lock >= T/2, possible when T is not a power of two) makes its port do nothing.
// Outputs are the flops. Requires T >= 4 (two locks). C reference: csim/hw/spshare/sp_share.c.
module sp_share #(
  parameter integer T    = 8,     // CTA slots per SM
  parameter integer W    = 48,    // warp slots per SM
  parameter integer SMEM = 49152  // scratchpad bytes per SM
) (
  input  wire                          clk_i,
  input  wire                          rst_ni,
  input  wire                          cfg_i,
  input  wire                          cfg_mode_i,
  input  wire [$clog2(SMEM+1)-1:0]     cfg_thr_i,
  input  wire                          tb_wr_i,
  input  wire [$clog2(T)-1:0]          tb_i,
  input  wire [$clog2(T+1)-1:0]        tb_partner_i,
  input  wire                          warp_wr_i,
  input  wire [W-1:0]                  warp_mask_i,
  input  wire                          warp_owner_i,
  input  wire                          req_i,
  input  wire [$clog2(T)-1:0]          req_tb_i,
  input  wire [$clog2(T/2)-1:0]        req_lock_i,
  input  wire [$clog2(SMEM+1)-1:0]     req_addr_i,
  input  wire                          rel_i,
  input  wire [$clog2(T)-1:0]          rel_tb_i,
  input  wire [$clog2(T/2)-1:0]        rel_lock_i,
  output wire                          mode_o,
  output wire [$clog2(SMEM+1)-1:0]     thr_o,
  output wire [T*$clog2(T+1)-1:0]      partner_o,
  output wire [W-1:0]                  owner_o,
  output wire [(T/2)*$clog2(T)-1:0]    lock_o,
  output wire [T/2-1:0]                lvalid_o
);

  localparam integer TW  = $clog2(T+1);     // partner field: a slot or T
  localparam integer TI  = $clog2(T);       // CTA slot id
  localparam integer NL  = T / 2;           // locks, one per possible pair
  localparam integer LIW = $clog2(NL);      // lock index
  localparam integer AW  = $clog2(SMEM+1);  // scratchpad offset
  localparam [TW-1:0] UNSHARED = T[TW-1:0];

  reg             mode_q    /*verilator public_flat_rd*/;
  reg [T*TW-1:0]  partner_q /*verilator public_flat_rd*/;
  reg [W-1:0]     owner_q   /*verilator public_flat_rd*/;
  reg [NL*TI-1:0] lock_q    /*verilator public_flat_rd*/;
  reg [NL-1:0]    lvalid_q  /*verilator public_flat_rd*/;
  reg [AW-1:0]    thr_q     /*verilator public_flat_rd*/;

  reg             mode_d;
  reg [T*TW-1:0]  partner_d;
  reg [W-1:0]     owner_d;
  reg [NL*TI-1:0] lock_d;
  reg [NL-1:0]    lvalid_d;
  reg [AW-1:0]    thr_d;

  // Slots and locks are decoded by comparing the index with each one in turn, so an index out
  // of range matches nothing instead of selecting past the end of a vector.
  reg req_shared;  // comparator (b): the requesting TB has a partner
  reg req_free;    // the requested lock is held by nobody
  integer i;
  always @* begin
    req_shared = 1'b0;
    req_free   = 1'b0;
    for (i = 0; i < T; i = i + 1) begin
      if (req_tb_i == i[TI-1:0] && partner_q[i*TW +: TW] < UNSHARED) begin
        req_shared = 1'b1;
      end
    end
    for (i = 0; i < NL; i = i + 1) begin
      if (req_lock_i == i[LIW-1:0] && !lvalid_q[i]) begin
        req_free = 1'b1;
      end
    end
  end

  wire req_in_shared = req_addr_i >= thr_q;  // comparator (c): past the private part
  wire grant         = req_i & mode_q & req_shared & req_in_shared & req_free;

  integer j;
  always @* begin
    mode_d    = mode_q;
    partner_d = partner_q;
    owner_d   = owner_q;
    lock_d    = lock_q;
    lvalid_d  = lvalid_q;
    thr_d     = thr_q;
    if (cfg_i) begin
      mode_d = cfg_mode_i;
      thr_d  = cfg_thr_i;
    end
    if (warp_wr_i) begin
      owner_d = (owner_q & ~warp_mask_i) | ({W{warp_owner_i}} & warp_mask_i);
    end
    for (j = 0; j < T; j = j + 1) begin
      if (tb_wr_i && tb_i == j[TI-1:0]) begin
        partner_d[j*TW +: TW] = tb_partner_i;
      end
    end
    for (j = 0; j < NL; j = j + 1) begin
      if (grant && req_lock_i == j[LIW-1:0]) begin
        lock_d[j*TI +: TI] = req_tb_i;
        lvalid_d[j]        = 1'b1;
      end
      if (rel_i && rel_lock_i == j[LIW-1:0] && lvalid_q[j] &&
          lock_q[j*TI +: TI] == rel_tb_i) begin
        lvalid_d[j] = 1'b0;
      end
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q    <= 1'b0;
      partner_q <= {T{UNSHARED}};
      owner_q   <= {W{1'b0}};
      lock_q    <= {(NL*TI){1'b0}};
      lvalid_q  <= {NL{1'b0}};
      thr_q     <= {AW{1'b0}};
    end else begin
      mode_q    <= mode_d;
      partner_q <= partner_d;
      owner_q   <= owner_d;
      lock_q    <= lock_d;
      lvalid_q  <= lvalid_d;
      thr_q     <= thr_d;
    end
  end

  assign mode_o    = mode_q;
  assign thr_o     = thr_q;
  assign partner_o = partner_q;
  assign owner_o   = owner_q;
  assign lock_o    = lock_q;
  assign lvalid_o  = lvalid_q;

endmodule
