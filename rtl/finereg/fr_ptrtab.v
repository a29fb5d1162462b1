// FineReg PCRF pointer table (Oh, Koo, Kim, Ro, Yoon, MICRO 2018, sec. V-C, V-E, V-F, Fig. 10).
//
// One line per resident CTA: the PCRF entry holding the first live register of the CTA's
// chain (10 bits) and the number of live registers it moved there (6 bits): 128 x 16 bits =
// 256 B of SRAM (ent_q, one read and one write port, synchronous read).
//   wr_i    writes line wr_cta_i = {wr_head_i, min(wr_cnt_i, 2^CNT_BITS - 1)}. The paper's 6-bit
//           count cannot hold a CTA's full footprint (up to 32 warps x 63 registers), so it
//           saturates; the chain itself ends at its end mark (fr_pcrf), never by the count.
//   rd_i    reads line rd_cta_i into the read register: rd_valid_o, rd_head_o and rd_cnt_o
//           show it after the same edge (1 cycle). A read and a write of the same line in one
//           cycle read the old line.
//   fit_o   the switch decision of sec. V-E, combinational: free_i (free PCRF entries, from
//           fr_pcrf's free-space monitor) plus, when cand_i says the line in the read register
//           is the pending CTA chosen to move back to the ACRF, its count, >= need_i (the
//           stalled CTA's live registers). A saturated count under-states the entries a
//           restore frees, so fit_o errs on the side of refusing a switch.
// CTAS and ENTRIES must be powers of two. C reference: csim/hw/finereg/fr_ptrtab.c.
module fr_ptrtab #(
  parameter integer CTAS     = 128,   // resident CTAs
  parameter integer ENTRIES  = 1024,  // PCRF entries
  parameter integer CNT_BITS = 6      // stored count width
) (
  input  wire                             clk_i,
  input  wire                             rst_ni,
  input  wire                             wr_i,
  input  wire [$clog2(CTAS)-1:0]          wr_cta_i,
  input  wire [$clog2(ENTRIES)-1:0]       wr_head_i,
  input  wire [$clog2(ENTRIES+1)-1:0]     wr_cnt_i,
  input  wire                             rd_i,
  input  wire [$clog2(CTAS)-1:0]          rd_cta_i,
  input  wire [$clog2(ENTRIES+1)-1:0]     need_i,
  input  wire [$clog2(ENTRIES+1)-1:0]     free_i,
  input  wire                             cand_i,
  output wire                             rd_valid_o,
  output wire [$clog2(ENTRIES)-1:0]       rd_head_o,
  output wire [CNT_BITS-1:0]              rd_cnt_o,
  output wire                             fit_o
);

  localparam integer EW = $clog2(ENTRIES);
  localparam integer NW = $clog2(ENTRIES + 1);
  localparam integer LW = EW + CNT_BITS;
  localparam [NW-1:0]       CNT_MAX  = (1 << CNT_BITS) - 1;
  localparam [CNT_BITS-1:0] CNT_ONES = {CNT_BITS{1'b1}};

  reg [LW-1:0] ent_q [0:CTAS-1] /*verilator public_flat_rd*/;
  reg [LW-1:0] rd_q /*verilator public_flat_rd*/;
  reg          rv_q /*verilator public_flat_rd*/;

`ifdef BROKEN_FOR_TEST
  // Test-only fault (built as "fr_ptrtab-broken"): a saturating count is stored one short.
  wire [CNT_BITS-1:0] cnt_st = (wr_cnt_i >= CNT_MAX) ? CNT_ONES - 1'b1 : wr_cnt_i[CNT_BITS-1:0];
`else
  wire [CNT_BITS-1:0] cnt_st = (wr_cnt_i > CNT_MAX) ? CNT_ONES : wr_cnt_i[CNT_BITS-1:0];
`endif

  // the SRAM: one write port, one synchronous read port (read-first), no reset
  always @(posedge clk_i) begin
    if (wr_i) ent_q[wr_cta_i] <= {wr_head_i, cnt_st};
    if (rd_i) rd_q <= ent_q[rd_cta_i];
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rv_q <= 1'b0;
    else         rv_q <= rd_i;
  end

  wire [NW-1:0] rd_cnt_n = {{(NW-CNT_BITS){1'b0}}, rd_q[CNT_BITS-1:0]};
  wire [NW:0]   avail    = {1'b0, free_i} + {1'b0, cand_i ? rd_cnt_n : {NW{1'b0}}};

  assign rd_valid_o = rv_q;
  assign rd_head_o  = rd_q[LW-1:CNT_BITS];
  assign rd_cnt_o   = rd_q[CNT_BITS-1:0];
  assign fit_o      = avail >= {1'b0, need_i};

endmodule
