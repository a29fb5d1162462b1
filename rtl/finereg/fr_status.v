// FineReg CTA status monitor (Oh, Koo, Kim, Ro, Yoon, MICRO 2018, sec. IV-C, V-B, Table IV,
// Fig. 8).
//
// Per resident CTA two 2-bit fields (Table IV): the context field (0 not launched, 1 its
// pipeline context is backed up in shared memory, 2 it is in the pipeline) and the register
// field (0 not launched, 1 its live registers are in the PCRF, 2 its registers are in the
// ACRF). A CTA is active only when both are 2. Code 3 is not used by the paper; the unit stores
// it and no search matches it (a policy may use it, e.g. for registers in transit).
// 2 fields x 128 CTAs x 2 bits = 512 bits. They are flops (ctx_q, reg_q arrays, reset to 0):
// the searches below read every entry at once ("quickly prioritize pending CTAs"), which an
// SRAM with address ports cannot do.
//   wa_*, wb_*  two write ports (a switch rewrites the stalled CTA and the restored one in the
//               same cycle); B wins when both write the same CTA; clr_i (wins) clears all.
//   rd_cta_i    read port: rd_ctx_o, rd_reg_o (combinational).
// Searches (combinational, over the fields after the edge and this cycle's stall_i/ready_i,
// lowest CTA id first):
//   vic_*   an active CTA (2, 2) with stall_i set: every warp waits, switch it out;
//   cand_*  a pending CTA with ready_i set to switch in: first one whose context is saved and
//           whose registers are still in the ACRF (1, 2), else one whose registers are in the
//           PCRF (1, 1) (sec. V-B's order); cand_reg_o says which (2 or 1; 0 when none);
//   mov_*   a pending CTA whose registers are still in the ACRF (1, 2) with stall_i set (its
//           warps wait on loads): its live registers can move to the PCRF to make ACRF room
//           (Fig. 6a) without holding back a CTA that could run;
//   free_*  a CTA slot not launched (context 0), for a new CTA.
// The paper gives no order within a class (sec. V-B: the monitor "quickly prioritize[s] pending
// CTAs"); each search is a priority encoder, lowest CTA id (the SM's CTA slot) first, and that
// answer is the switch decision's choice (csim/policy/finereg.c takes it as is).
// Each search is a log-depth find-first-set tree (fr_ffs.v); an id is all ones when its
// valid is 0.
// CTAS must be a power of two. C reference: csim/hw/finereg/fr_status.c.
module fr_status #(
  parameter integer CTAS = 128  // resident CTAs tracked
) (
  input  wire                          clk_i,
  input  wire                          rst_ni,
  input  wire                          clr_i,
  input  wire                          wa_i,
  input  wire [$clog2(CTAS)-1:0]       wa_cta_i,
  input  wire [1:0]                    wa_ctx_i,
  input  wire [1:0]                    wa_reg_i,
  input  wire                          wb_i,
  input  wire [$clog2(CTAS)-1:0]       wb_cta_i,
  input  wire [1:0]                    wb_ctx_i,
  input  wire [1:0]                    wb_reg_i,
  input  wire [$clog2(CTAS)-1:0]       rd_cta_i,
  input  wire [CTAS-1:0]               stall_i,
  input  wire [CTAS-1:0]               ready_i,
  output wire [1:0]                    rd_ctx_o,
  output wire [1:0]                    rd_reg_o,
  output wire                          vic_valid_o,
  output wire [$clog2(CTAS)-1:0]       vic_cta_o,
  output wire                          cand_valid_o,
  output wire [$clog2(CTAS)-1:0]       cand_cta_o,
  output wire [1:0]                    cand_reg_o,
  output wire                          mov_valid_o,
  output wire [$clog2(CTAS)-1:0]       mov_cta_o,
  output wire                          free_valid_o,
  output wire [$clog2(CTAS)-1:0]       free_cta_o
);

  localparam integer IW = $clog2(CTAS);

  (* mem2reg *) reg [1:0] ctx_q [0:CTAS-1] /*verilator public_flat_rd*/;
  (* mem2reg *) reg [1:0] reg_q [0:CTAS-1] /*verilator public_flat_rd*/;

  // per-CTA search classes
  wire [CTAS-1:0] vic_v, cand_a, cand_b, mov_v, free_v;

  // one always block per entry (Verilator cannot delay-assign an array inside a loop)
  genvar ge;
  generate
    for (ge = 0; ge < CTAS; ge = ge + 1) begin : g_ent
      localparam [IW-1:0] ID = ge[IW-1:0];
`ifdef BROKEN_FOR_TEST
      // Test-only fault (built as "fr_status-broken"): port A wins a same-CTA collision.
      wire hit_a = wa_i && wa_cta_i == ID;
      wire hit_b = wb_i && wb_cta_i == ID && !hit_a;
`else
      wire hit_b = wb_i && wb_cta_i == ID;
      wire hit_a = wa_i && wa_cta_i == ID && !hit_b;
`endif
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          ctx_q[ge] <= 2'd0;
          reg_q[ge] <= 2'd0;
        end else if (clr_i) begin
          ctx_q[ge] <= 2'd0;
          reg_q[ge] <= 2'd0;
        end else if (hit_b) begin
          ctx_q[ge] <= wb_ctx_i;
          reg_q[ge] <= wb_reg_i;
        end else if (hit_a) begin
          ctx_q[ge] <= wa_ctx_i;
          reg_q[ge] <= wa_reg_i;
        end
      end
      assign vic_v[ge]  = ctx_q[ge] == 2'd2 && reg_q[ge] == 2'd2 && stall_i[ge];
      assign cand_a[ge] = ctx_q[ge] == 2'd1 && reg_q[ge] == 2'd2 && ready_i[ge];
      assign cand_b[ge] = ctx_q[ge] == 2'd1 && reg_q[ge] == 2'd1 && ready_i[ge];
      assign mov_v[ge]  = ctx_q[ge] == 2'd1 && reg_q[ge] == 2'd2 && stall_i[ge];
      assign free_v[ge] = ctx_q[ge] == 2'd0;
    end
  endgenerate

  wire          a_found, b_found;
  wire [IW-1:0] a_idx, b_idx;
  fr_ffs #(.N(CTAS)) u_vic  (.v_i(vic_v),  .found_o(vic_valid_o),  .idx_o(vic_cta_o));
  fr_ffs #(.N(CTAS)) u_ca   (.v_i(cand_a), .found_o(a_found),      .idx_o(a_idx));
  fr_ffs #(.N(CTAS)) u_cb   (.v_i(cand_b), .found_o(b_found),      .idx_o(b_idx));
  fr_ffs #(.N(CTAS)) u_mov  (.v_i(mov_v),  .found_o(mov_valid_o),  .idx_o(mov_cta_o));
  fr_ffs #(.N(CTAS)) u_free (.v_i(free_v), .found_o(free_valid_o), .idx_o(free_cta_o));

  assign rd_ctx_o     = ctx_q[rd_cta_i];
  assign rd_reg_o     = reg_q[rd_cta_i];
  assign cand_valid_o = a_found | b_found;
  assign cand_cta_o   = a_found ? a_idx : b_idx;
  assign cand_reg_o   = a_found ? 2'd2 : b_found ? 2'd1 : 2'd0;

endmodule
