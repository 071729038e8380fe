-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- MPI rank 0 of two (mpi_rank0.sql + mpi_rank1.sql, two hosts): MPI_RANKS, MPI_P2P_EVENTS,
-- MPI_COLLECTIVES_EVENTS, MPI_START_WAIT_EVENTS, MPI_OTHER_EVENTS (MPI_Init, MPI_Finalize), one CUDA kernel.
-- Schema 3.16.1 (nsys 2024.6).
-- CREATE TABLE statements are copied from real exports (sqlite3 .schema of shared/data/nsys/*.sqlite) or,
-- for tables none of them has, from NVIDIA's documented export schema. Times are ns since the session start.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
-- @include schema_mpi.sql


-- MPI rank 0 of a 2-rank run (the other rank is mpi_rank1.sql, on another host). pid 7000 (rank 1 happens to
-- have the same pid on its own host); globalPid = (1 << 48) | (7000 << 24), main thread tid 7000.
-- Session start (UTC) 1700000200000000000; MPI_Init ends at 51000 local time.
-- Messages: rank 0 -> 1 MPI_Send tag 17 (4096 B), MPI_Isend tag 18 (1024 B); rank 1 -> 0 tag 19 (256 B), received
-- here by MPI_Recv; and one MPI_Send tag 99 (8 B) that rank 1 never receives.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'halo_pack_kernel'),
    (3, 'MPI_Init'),
    (4, 'MPI_Finalize'),
    (5, 'MPI_Send'),
    (6, 'MPI_Isend'),
    (7, 'MPI_Recv'),
    (8, 'MPI_Irecv'),
    (9, 'MPI_Wait'),
    (10, 'MPI_Allreduce'),
    (11, 'MPI_Comm_rank'),
    (12, 'synthetic_mpi');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_mpi_rank0.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000200000000000, '2023-11-14T22:16:40', '2023-11-14T22:16:40');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-host-beta');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 102000, 0, 102000);
INSERT INTO PROCESSES VALUES (281592417222656, 7000, 'synthetic_mpi');
INSERT INTO ThreadNames VALUES (12, 20, 281592417229656);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (52000, 52500, 0, 281592417229656, 1, 1, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (53000, 58000, 0, 1, NULL, 7, 1, 281592417222656, 2, 2, NULL, 1, 0, 32, 512, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0);

INSERT INTO MPI_RANKS VALUES (281592417229656, 0);
-- start, end, globalTid, textId
INSERT INTO MPI_OTHER_EVENTS VALUES
    (1000, 51000, 281592417229656, 3),
    (51200, 51300, 281592417229656, 11),
    (100000, 101000, 281592417229656, 4);
-- start, end, globalTid, textId, commHandle, tag, remoteRank, size, requestHandle (1140850688 = MPI_COMM_WORLD)
INSERT INTO MPI_P2P_EVENTS VALUES
    (60000, 61000, 281592417229656, 5, 1140850688, 17, 1, 4096, NULL),
    (62000, 62200, 281592417229656, 6, 1140850688, 18, 1, 1024, 3000),
    (70000, 72000, 281592417229656, 7, 1140850688, 19, 1, 256, NULL),
    (80000, 80100, 281592417229656, 5, 1140850688, 99, 1, 8, NULL);
-- start, end, globalTid, textId, requestHandle
INSERT INTO MPI_START_WAIT_EVENTS VALUES (62300, 62500, 281592417229656, 9, 3000);
-- start, end, globalTid, textId, commHandle, rootRank, size, recvSize, requestHandle
INSERT INTO MPI_COLLECTIVES_EVENTS VALUES (90000, 95000, 281592417229656, 10, 1140850688, NULL, 8, 8, NULL);
COMMIT;
