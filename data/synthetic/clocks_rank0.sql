-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- Clock alignment of two ranks (clocks_rank0.sql + clocks_rank1.sql, two hosts; tests/test_clock_alignment.cpp):
-- each has MPI_Init, three MPI collectives (MPI_Barrier, MPI_Allreduce, MPI_Allreduce) and one CUDA kernel.
-- The tests make variants by deleting the session start (TARGET_INFO_SESSION_START_TIME), MPI_Init or the
-- collectives. Schema 3.16.1 (nsys 2024.6); CREATE TABLE statements are copied from real exports (sqlite3
-- .schema of shared/data/nsys/*.sqlite) or, for tables none of them has, from NVIDIA's documented export
-- schema. Times are ns since each export's session start.
--
-- Rank 0: session start (UTC) 1700000300000000000; MPI_Init 1000..20000; collectives end at 40000, 50000,
-- 60000; MPI_Finalize 61000..62000 (its last record). Rank 1: session start 2000 ns later; MPI_Init
-- 500..17000; collectives end at 37200, 46700, 57400; MPI_Finalize 58000..59000.
--
-- Expected, worked by hand (shift = what is added to an export's times before time 0 is chosen):
-- * Both with a session start: UTC shifts 0 and 2000. MPI_Init ends after UTC alignment: 20000 + 0 = 20000
--   and 17000 + 2000 = 19000: the target is the later, 20000, so the sync shifts are 0 and 1000 and the
--   shifts 0 and 3000 (method utc+MPI_Init). Collective ends after alignment: rank 0 40000, 50000, 60000;
--   rank 1 37200 + 3000 = 40200, 46700 + 3000 = 49700, 57400 + 3000 = 60400: distances 200, 300, 400, so
--   the uncertainty of both is 400 ns over 3 collectives. First records: rank 0 1000 + 0, rank 1 500 + 3000
--   = 3500: time 0 = 1000, offsets -1000 and 2000; last records 62000 and 59000 + 3000 = 62000: duration
--   61000 ns; origin 1700000300000000000 + 1000.
-- * Neither with a session start: placed by MPI_Init alone (method MPI_Init): the target is the later end,
--   20000, so the shifts are 20000 - 20000 = 0 and 20000 - 17000 = 3000 (all of it sync shift), the same
--   offsets, uncertainty 400 ns over 3 collectives; origin unknown (0). A warning names each export.
-- * Rank 0 with, rank 1 without: rank 0 utc+MPI_Init (shift 0); rank 1 meets it at 20000: shift 3000
--   (method MPI_Init), same offsets and uncertainty; one warning, naming rank 1's export.
-- * Neither with a session start, MPI_Init and the collectives deleted: nothing to place them by: refused,
--   naming both exports; with --unaligned both are "none" (shift 0): the first records are the launch calls,
--   rank 0's at 21000 and rank 1's at 18000, so time 0 = 18000 and both offsets are -18000.
-- * Rank 0 with a session start, rank 1 without, MPI_Init and the collectives deleted: only rank 1 cannot be
--   placed: merged with a warning naming it, method none (shift 0); rank 0 utc (shift 0); offsets -18000.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
-- @include schema_mpi.sql

-- pid 7100; globalPid = (1 << 48) | (7100 << 24), main thread tid 7100.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'reduce_kernel'),
    (3, 'MPI_Init'),
    (4, 'MPI_Finalize'),
    (5, 'MPI_Barrier'),
    (6, 'MPI_Allreduce'),
    (7, 'synthetic_clocks');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_clocks_rank0.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000300000000000, '2023-11-14T22:18:20', '2023-11-14T22:18:20');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'clock-host-a');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 63000, 0, 63000);
INSERT INTO PROCESSES VALUES (281594094944256, 7100, 'synthetic_clocks');
INSERT INTO ThreadNames VALUES (7, 20, 281594094951356);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (21000, 21500, 0, 281594094951356, 1, 1, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (22000, 30000, 0, 1, NULL, 7, 1, 281594094944256, 2, 2, NULL, 1, 0, 32, 512, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0);

INSERT INTO MPI_RANKS VALUES (281594094951356, 0);
-- start, end, globalTid, textId
INSERT INTO MPI_OTHER_EVENTS VALUES
    (1000, 20000, 281594094951356, 3),
    (61000, 62000, 281594094951356, 4);
-- start, end, globalTid, textId, commHandle, rootRank, size, recvSize, requestHandle (1140850688 = MPI_COMM_WORLD)
INSERT INTO MPI_COLLECTIVES_EVENTS VALUES
    (31000, 40000, 281594094951356, 5, 1140850688, NULL, 0, 0, NULL),
    (41000, 50000, 281594094951356, 6, 1140850688, NULL, 8, 8, NULL),
    (51000, 60000, 281594094951356, 6, 1140850688, NULL, 8, 8, NULL);
COMMIT;
