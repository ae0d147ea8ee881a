import { runService } from '@ledger-api/runtime';
import { nftBaseArea } from './service';

void runService(nftBaseArea);
