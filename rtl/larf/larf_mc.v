// Mapping controller of the locality-aware register file (Jeon et al., IEEE CAL 2019, sec. 3).
//
// Turns the address mapping table's answer for a global load into an action and keeps, per
// physical register, the number of architectural registers mapped to it (cnt_q, a memory with
// two read-modify-write ports, one per operation below; both may come in one cycle).
//   decide_i (kind_i from larf_amt):
//     1 perfect  -> act 1 map:   dst = preg_a_i, its count + 1 (the load needs no register);
//     2, 3       -> act 2 merge: dst = new_i, count 1 (the w-merge unit writes it);
//     0 miss     -> act 3 load:  dst = new_i, count 1 (the memory load writes it).
//   unmap_i preg_i (its architectural register was overwritten -- copy-on-write: the writer
//     gets a new register -- or its warp exited): count - 1 (a count of 0 stays 0), applied
//     after a decision on the same register in the same cycle; freed_o when the count drops
//     from 1 to 0 (the register and its table entry can go), shared_o when it was above 1.
// Outputs are registered and hold for one cycle (act_o, freed_o, shared_o return to 0 on the
// next edge without an operation); rc_o is the count the decision wrote, else the unmap's.
// C reference: csim/hw/larf/larf_mc.c.
module larf_mc #(
  parameter integer NPREGS      = 1024,  // physical warp registers per SM
  parameter integer MAX_SHARERS = 64     // architectural registers that may share one
) (
  input  wire                               clk_i,
  input  wire                               rst_ni,
  input  wire                               decide_i,
  input  wire [1:0]                         kind_i,
  input  wire [$clog2(NPREGS)-1:0]          preg_a_i,
  input  wire [$clog2(NPREGS)-1:0]          new_i,
  input  wire                               unmap_i,
  input  wire [$clog2(NPREGS)-1:0]          preg_i,
  output wire [1:0]                         act_o,
  output wire [$clog2(NPREGS)-1:0]          dst_o,
  output wire                               freed_o,
  output wire                               shared_o,
  output wire [$clog2(MAX_SHARERS+1)-1:0]   rc_o
);

  localparam integer PW = $clog2(NPREGS);
  localparam integer CW = $clog2(MAX_SHARERS + 1);
  localparam [CW-1:0] ONE = 1;
  localparam [CW-1:0] ZERO = 0;

  reg [CW-1:0] cnt_q [0:NPREGS-1] /*verilator public_flat_rd*/;

  reg [1:0]    act_q    /*verilator public_flat_rd*/;
  reg [PW-1:0] dst_q    /*verilator public_flat_rd*/;
  reg          freed_q  /*verilator public_flat_rd*/;
  reg          shared_q /*verilator public_flat_rd*/;
  reg [CW-1:0] rc_q     /*verilator public_flat_rd*/;

  wire          perf   = (kind_i == 2'd1);
  wire [PW-1:0] addr   = perf ? preg_a_i : new_i;
  wire [CW-1:0] cur_d  = cnt_q[addr];
  wire [CW-1:0] cur_u  = cnt_q[preg_i];
  wire [CW-1:0] nxt_d  = perf ? cur_d + ONE : ONE;
  wire [1:0]    act_d  = ~decide_i ? 2'd0 : perf ? 2'd1 : (kind_i == 2'd0) ? 2'd3 : 2'd2;
  wire [CW-1:0] base_u = (decide_i && addr == preg_i) ? nxt_d : cur_u;
`ifdef BROKEN_FOR_TEST
  // Test-only fault (hw.mk builds it as "larf_mc-broken"): unmapping a register shared by
  // exactly two frees it. Lockstep must catch it.
  wire [CW-1:0] nxt_u  = (base_u == 2) ? ZERO : (base_u == ZERO) ? ZERO : base_u - ONE;
`else
  wire [CW-1:0] nxt_u  = (base_u == ZERO) ? ZERO : base_u - ONE;
`endif

  always @(posedge clk_i) begin
    if (decide_i) cnt_q[addr] <= nxt_d;
    if (unmap_i) cnt_q[preg_i] <= nxt_u;  // after the decision: wins on the same register
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q <= 2'd0; dst_q <= {PW{1'b0}}; freed_q <= 1'b0; shared_q <= 1'b0;
      rc_q <= ZERO;
    end else begin
      act_q    <= act_d;
      freed_q  <= unmap_i & (nxt_u == ZERO) & (base_u != ZERO);
      shared_q <= unmap_i & (base_u > ONE);
      if (decide_i) begin
        dst_q <= addr;
        rc_q  <= nxt_d;
      end else if (unmap_i) begin
        rc_q  <= nxt_u;
      end
    end
  end

  assign act_o    = act_q;
  assign dst_o    = dst_q;
  assign freed_o  = freed_q;
  assign shared_o = shared_q;
  assign rc_o     = rc_q;

endmodule
