// FineReg live-register information cache (Oh, Koo, Kim, Ro, Yoon, MICRO 2018, sec. V-C, V-F,
// Fig. 10).
//
// The compiler's live-register bit vector of an instruction (64 bits: one per architectural
// register) lives in off-chip memory; when a CTA is switched out, the RMU needs the vector of
// each warp's stalled PC. This cache keeps 32 of them: direct-mapped, line = a 5-bit hash of
// the PC (PC[PC_LSB+4:PC_LSB] ^ PC[PC_LSB+9:PC_LSB+5]), tag = the full 32-bit PC. Two SRAMs,
// tags 32 x 32 and vectors 32 x 64 = 3072 bits = 384 B (the paper's 12-byte lines x 32), one
// synchronous read port each; a valid flop per line (32, not in the paper's count: an SRAM
// line cannot be cleared at kernel launch without them).
//   lk_i     looks up lk_pc_i: after the edge lk_valid_o = 1, hit_o = the line is valid and its
//            tag is the PC, vec_o = the line's vector (meaningful on a hit). 1 cycle.
//   fill_i   writes the line of fill_pc_i (tag, vector) and sets it valid: the policy fills
//            after a miss, once its load of the vector from memory returns. Direct-mapped, so
//            the line's previous PC is replaced (the paper's organization; no policy choice).
//   clr_i    invalidates every line (a new kernel's PCs).
// Read-first: a lookup in the same cycle as a fill or a clear sees the cache before them.
// ENTRIES must be a power of two >= 2. C reference: csim/hw/finereg/fr_lrcache.c.
module fr_lrcache #(
  parameter integer ENTRIES = 32,  // lines
  parameter integer PC_LSB  = 3    // PC bits below an instruction
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        clr_i,
  input  wire        lk_i,
  input  wire [31:0] lk_pc_i,
  input  wire        fill_i,
  input  wire [31:0] fill_pc_i,
  input  wire [63:0] fill_vec_i,
  output wire        lk_valid_o,
  output wire        hit_o,
  output wire [63:0] vec_o
);

  localparam integer IW = $clog2(ENTRIES);

  reg [31:0]        tag_q [0:ENTRIES-1] /*verilator public_flat_rd*/;
  reg [63:0]        vec_q [0:ENTRIES-1] /*verilator public_flat_rd*/;
  reg [31:0]        trd_q   /*verilator public_flat_rd*/;
  reg [63:0]        drd_q   /*verilator public_flat_rd*/;
  reg [ENTRIES-1:0] valid_q /*verilator public_flat_rd*/;
  reg               lkv_q   /*verilator public_flat_rd*/;
  reg [31:0]        lkpc_q  /*verilator public_flat_rd*/;
  reg               vhit_q  /*verilator public_flat_rd*/;

  wire [IW-1:0] lk_line   = lk_pc_i[PC_LSB +: IW] ^ lk_pc_i[PC_LSB+IW +: IW];
  wire [IW-1:0] fill_line = fill_pc_i[PC_LSB +: IW] ^ fill_pc_i[PC_LSB+IW +: IW];

  // the SRAMs: one write and one synchronous read port each (read-first), no reset
  always @(posedge clk_i) begin
    if (fill_i) begin
      tag_q[fill_line] <= fill_pc_i;
      vec_q[fill_line] <= fill_vec_i;
    end
    if (lk_i) begin
      trd_q <= tag_q[lk_line];
      drd_q <= vec_q[lk_line];
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= {ENTRIES{1'b0}};
      lkv_q   <= 1'b0;
      lkpc_q  <= 32'd0;
      vhit_q  <= 1'b0;
    end else begin
      lkv_q <= lk_i;
      if (lk_i) begin
        lkpc_q <= lk_pc_i;
        vhit_q <= valid_q[lk_line];
      end
      if (clr_i)       valid_q <= {ENTRIES{1'b0}};
      else if (fill_i) valid_q[fill_line] <= 1'b1;
    end
  end

  assign lk_valid_o = lkv_q;
`ifdef BROKEN_FOR_TEST
  // Test-only fault (built as "fr_lrcache-broken"): the tag compare ignores PC bit 31.
  assign hit_o = lkv_q & vhit_q & (trd_q[30:0] == lkpc_q[30:0]);
`else
  assign hit_o = lkv_q & vhit_q & (trd_q == lkpc_q);
`endif
  assign vec_o = drd_q;

endmodule
