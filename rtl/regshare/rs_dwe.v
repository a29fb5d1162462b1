// Register sharing's dynamic warp execution (Jatala, Anantpur, Karkare, sec. IV-C): one SM's
// probability of letting a non-owner warp issue a memory instruction. The extra TBs that
// sharing launches can raise cache misses and so stall cycles; SM0 serves as the reference that
// never issues such instructions, and every other SM steers its probability by its own stall
// cycles against SM0's, once per 1000-cycle window, by p = 1/STEPS (0.1), within [0, 1] and
// starting at 1. The random draw is a 16-bit LFSR seeded per kernel, so runs are reproducible.
//   cfg_i   kernel start: probability 1, ref_q <= cfg_ref_i, LFSR <= cfg_seed_i (1 for a seed
//           of 0, from which the LFSR would never move);
//   win_i   a window ended with mine_i stall cycles here and sm0_i on SM0: more than SM0 is one
//           step down, fewer one step up, equal no change, both saturating; SM0 never moves;
//   draw_i  the draw shown on allow_o was used: next LFSR state (Galois, taps 16'hB400,
//           x^16+x^14+x^13+x^11+1, maximal: period 65535 through every nonzero state).
// cfg_i wins over win_i and draw_i in the same cycle; win_i and draw_i act together. Outputs
// are functions of the flops alone: allow_o = !ref_q && ((lfsr * STEPS) >> 16) < prob_q, the
// LFSR scaled exactly to a draw in [0, STEPS) and allowed below prob_q, so the fraction of
// allowed draws over one LFSR period is within 1/65535 of prob_q / STEPS (the state 0 is
// missing and 65536 / STEPS is rounded). Requires 1 <= STEPS <= 1024 (one bound comparator per
// step). C reference (with the multiply): csim/hw/regshare/rs_dwe.c.
module rs_dwe #(
  parameter integer STEPS = 10  // probability resolution: one window moves it by 1/STEPS
) (
  input  wire                       clk_i,
  input  wire                       rst_ni,
  input  wire                       cfg_i,
  input  wire                       cfg_ref_i,
  input  wire [15:0]                cfg_seed_i,
  input  wire                       win_i,
  input  wire [31:0]                mine_i,
  input  wire [31:0]                sm0_i,
  input  wire                       draw_i,
  output wire                       allow_o,
  output wire [$clog2(STEPS+1)-1:0] prob_o,
  output wire                       ref_o
);

  localparam integer PW = $clog2(STEPS+1);
  localparam [PW-1:0] PROB_ONE  = STEPS[PW-1:0];
  localparam [PW-1:0] PROB_STEP = 1;
  localparam [15:0]   LFSR_TAPS = 16'hb400;
  localparam [15:0]   LFSR_INIT = 16'h0001;

  reg [PW-1:0] prob_q /*verilator public_flat_rd*/;
  reg          ref_q  /*verilator public_flat_rd*/;
  reg [15:0]   lfsr_q /*verilator public_flat_rd*/;

  reg [PW-1:0] prob_d;
  reg          ref_d;
  reg [15:0]   lfsr_d;

  wire [15:0] lfsr_next = {1'b0, lfsr_q[15:1]} ^ (lfsr_q[0] ? LFSR_TAPS : 16'h0000);

  // (lfsr * STEPS) >> 16 < k  <=>  lfsr < ceil(k * 65536 / STEPS): the LFSR is compared with
  // every probability's constant bound at once and prob_q only picks the answer, so allow_o
  // waits for no multiply, add or table lookup before a compare
  wire [STEPS:0] below;
  genvar k;
  generate
    assign below[0] = 1'b0;
    for (k = 1; k <= STEPS; k = k + 1) begin : g_below
      localparam integer B = (k * 65536 + STEPS - 1) / STEPS;
      localparam [16:0] BOUND = B[16:0];
      assign below[k] = {1'b0, lfsr_q} < BOUND;
    end
  endgenerate
  wire allow = ~ref_q & below[prob_q];  // prob_q never exceeds STEPS

  // The window's outcomes are prepared from the flops and the narrow inputs; the 32-bit stall
  // comparison, the latest signal, only picks one of them at the end.
  wire           move       = win_i & ~ref_q;
  wire [PW-1:0]  prob_dn    = (prob_q != {PW{1'b0}}) ? prob_q - PROB_STEP : prob_q;
  wire [PW-1:0]  prob_up    = (prob_q < PROB_ONE) ? prob_q + PROB_STEP : prob_q;
  wire [PW-1:0]  prob_same  = cfg_i ? PROB_ONE : prob_q;
  wire [PW-1:0]  prob_more  = cfg_i ? PROB_ONE : move ? prob_dn : prob_q;
  wire [PW-1:0]  prob_fewer = cfg_i ? PROB_ONE : move ? prob_up : prob_q;

  always @* begin
    ref_d  = ref_q;
    lfsr_d = lfsr_q;
    if (mine_i > sm0_i) begin
      prob_d = prob_more;
    end else if (mine_i < sm0_i) begin
      prob_d = prob_fewer;
    end else begin
      prob_d = prob_same;
    end
    if (cfg_i) begin
      ref_d  = cfg_ref_i;
      lfsr_d = (cfg_seed_i == 16'h0000) ? LFSR_INIT : cfg_seed_i;
    end else if (draw_i) begin
      lfsr_d = lfsr_next;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prob_q <= PROB_ONE;
      ref_q  <= 1'b0;
      lfsr_q <= LFSR_INIT;
    end else begin
      prob_q <= prob_d;
      ref_q  <= ref_d;
      lfsr_q <= lfsr_d;
    end
  end

  assign allow_o = allow;
  assign prob_o  = prob_q;
  assign ref_o   = ref_q;

endmodule
